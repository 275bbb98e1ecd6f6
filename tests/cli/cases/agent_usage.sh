# agent: usage and configuration errors, found before any event is opened (no root needed)
"$PMUSCOPE" agent extra; echo "exit=$?"
"$PMUSCOPE" agent --no-drop --drop-all; echo "exit=$?"
"$PMUSCOPE" agent --listen localhost; echo "exit=$?"
"$PMUSCOPE" agent --listen example.com:9753; echo "exit=$?"
"$PMUSCOPE" agent --listen 127.0.0.1:99999; echo "exit=$?"
"$PMUSCOPE" agent -F -1; echo "exit=$?"
"$PMUSCOPE" agent --history 5000; echo "exit=$?"
"$PMUSCOPE" agent --listen 0.0.0.0:9753; echo "exit=$?"
"$PMUSCOPE" agent --listen '[::]:9753'; echo "exit=$?"
"$PMUSCOPE" agent --web-config nothere.yml; echo "exit=$?"
printf 'tls_server_config:\n  cert_fil: a.crt\n' >web.yml
"$PMUSCOPE" agent --web-config web.yml; echo "exit=$?"
printf 'basic_auth_users:\n  alice: secret\n' >web.yml
"$PMUSCOPE" agent --web-config web.yml; echo "exit=$?"
printf 'listen: 127.0.0.1:9753\nfreqency: 99\n' >agent.yml
"$PMUSCOPE" agent --config agent.yml; echo "exit=$?"
printf 'freq: fast\n' >agent.yml
"$PMUSCOPE" agent --config agent.yml; echo "exit=$?"
printf 'cgroup:\n  nested: map\n' >agent.yml
"$PMUSCOPE" agent --config agent.yml; echo "exit=$?"
printf 'listen: [1\n' >agent.yml
"$PMUSCOPE" agent --config agent.yml; echo "exit=$?"
"$PMUSCOPE" agent --config nothere.yml; echo "exit=$?"
