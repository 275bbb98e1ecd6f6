# profile: usage errors (exit 129) and the no-BTF message (exit 1), no BPF needed
"$PMUSCOPE" profile extra; echo "exit=$?"
"$PMUSCOPE" profile -F -5; echo "exit=$?"
"$PMUSCOPE" profile -p 1 -t 1; echo "exit=$?"
"$PMUSCOPE" profile -a -p 1; echo "exit=$?"
"$PMUSCOPE" profile -U -K; echo "exit=$?"
"$PMUSCOPE" profile --format pprof; echo "exit=$?"
"$PMUSCOPE" profile -o x --format svg; echo "exit=$?"
"$PMUSCOPE" profile -p 1,x; echo "exit=$?"
"$PMUSCOPE" profile --interval 1 -o x; echo "exit=$?"
"$PMUSCOPE" profile -C 1-; echo "exit=$?"
# no BTF: a sysfs root without kernel/btf/vmlinux (checked before anything is loaded)
mkdir -p sys
PMS_SYSFS_ROOT=$PWD/sys "$PMUSCOPE" profile --duration 0.1; echo "exit=$?"
