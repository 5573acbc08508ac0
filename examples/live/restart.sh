#!/bin/sh
# restart.sh PIDFILE PORT COMMAND [ARG...] — a --restart-cmd for the example
# services: a crash (SIGKILL) of the service whose pid is in PIDFILE, then
# COMMAND ARG... PORT started again in the background. It returns once the
# new process listens (it writes its pid to $PIDFILE then), within 10 s.
# Its keys survive in $KEYS_DB (default: PIDFILE.keys.db); its output goes
# to PIDFILE.log. The first start is the same command with no PIDFILE yet:
#
#   examples/live/restart.sh /tmp/idem.pid 8001 python3 examples/live/python/idempotent_service.py
#   once live double-billing --semantics idem --target http://127.0.0.1:8001 --crash 0.2 --check \
#     --restart-cmd 'examples/live/restart.sh /tmp/idem.pid 8001 python3 examples/live/python/idempotent_service.py'
#   kill "$(cat /tmp/idem.pid)"
set -u
if [ $# -lt 3 ]; then
	echo "usage: restart.sh PIDFILE PORT COMMAND [ARG...]" >&2
	exit 2
fi
pidfile=$1 port=$2
shift 2
if [ -s "$pidfile" ]; then
	kill -9 "$(cat "$pidfile")" 2>/dev/null
fi
rm -f "$pidfile"
KEYS_DB=${KEYS_DB:-$pidfile.keys.db} PIDFILE=$pidfile nohup "$@" "$port" >>"$pidfile.log" 2>&1 </dev/null &
i=0
while [ ! -s "$pidfile" ]; do
	if [ $i -ge 200 ] || ! kill -0 $! 2>/dev/null; then
		echo "restart.sh: $* $port did not listen within 10 s (see $pidfile.log)" >&2
		exit 1
	fi
	i=$((i + 1))
	sleep 0.05
done
echo "restarted: pid $(cat "$pidfile") on 127.0.0.1:$port"
