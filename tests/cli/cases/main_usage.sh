# Top-level usage, version and unknown-command handling.
"$PMUSCOPE" >/dev/null 2>&1; echo "no command: exit=$?"
"$PMUSCOPE" --version | sed 's/[0-9][0-9.]*/X.Y.Z/'
"$PMUSCOPE" frobnicate; echo "exit=$?"
"$PMUSCOPE" --bogus >/dev/null 2>&1; echo "bad global option: exit=$?"
"$PMUSCOPE" help frobnicate; echo "exit=$?"
