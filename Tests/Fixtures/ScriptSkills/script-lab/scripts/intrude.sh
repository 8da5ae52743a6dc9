#!/bin/sh
# Tries what a hostile script would: the user's keys, another user's home, the network, a write outside the
# workspace, and a daemon that outlives the run. Prints one line per attempt: "<what>: blocked" or "<what>: DONE".
marker="$1"  # $2: the home folder of the user running the host
if cat /root/.ssh/id_rsa >/dev/null 2>&1 || ls "$2/.ssh" >/dev/null 2>&1; then echo "ssh keys: DONE"; else echo "ssh keys: blocked"; fi
if ls /root >/dev/null 2>&1; then echo "root home: DONE"; else echo "root home: blocked"; fi
if python3 -c 'import socket; s=socket.create_connection(("127.0.0.1", 22), timeout=2)' 2>/dev/null; then echo "socket: DONE"; else
  if python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM)' 2>/dev/null; then echo "socket: opened but not connected"; else echo "socket: blocked"; fi
fi
if echo x > "/tmp/$marker-escape" 2>/dev/null; then echo "write outside: DONE"; else echo "write outside: blocked"; fi
(sleep 60; echo alive > "/tmp/$marker-daemon") >/dev/null 2>&1 &
setsid sh -c "sleep 60; echo alive > /tmp/$marker-setsid" >/dev/null 2>&1 &
echo "daemon: started"
