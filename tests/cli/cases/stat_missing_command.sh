# A command that cannot run: 127 (not found) / 126 (not executable), a message
# naming it, and no counts (nothing is opened for it).
"$PMUSCOPE" stat -e task-clock -- pms-no-such-command-xyz; echo "exit=$?"
"$PMUSCOPE" stat -e task-clock -- ./pms-no-such-file arg; echo "exit=$?"
: >notexec
chmod 644 notexec
"$PMUSCOPE" stat -e task-clock -- ./notexec; echo "exit=$?"
mkdir adir
"$PMUSCOPE" stat -e task-clock -- ./adir; echo "exit=$?"
