#!/usr/bin/env bash
# Two "hosts" on one machine: two network namespaces joined by a veth pair.
# The middle pipeline stage (org.bbflow.net.ChildStage) runs inside namespace 1, the master
# (org.bbflow.net.NetnsMaster: source -> remote stage -> back -> check) inside namespace 2.
# Needs root (or CAP_NET_ADMIN + CAP_SYS_ADMIN) and iproute2.
#
# usage: netns-test.sh <java classpath with bbflow-network test classes> [items]
# exit status: 0 when every item came back in order, non-zero otherwise.
set -euo pipefail

CP="${1:?usage: netns-test.sh <classpath> [items]}"
ITEMS="${2:-1000000}"
JAVA="${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}"

ID="bbn$$"                          # unique per run; interface names must stay <= 15 chars
NS_WORKER="${ID}w"; NS_MASTER="${ID}m"
IF_WORKER="${ID}a"; IF_MASTER="${ID}b"
OCTET=$(( $$ % 250 + 1 ))
IP_WORKER="10.231.${OCTET}.1"; IP_MASTER="10.231.${OCTET}.2"
MASTER_PORT=47001                   # fresh namespace: nothing else listens there
LOG="$(mktemp -t bbflow-netns-worker.XXXXXX)"
WORKER_PID=""

cleanup() {
    set +e
    [ -n "$WORKER_PID" ] && kill -9 "$WORKER_PID" 2>/dev/null
    ip netns pids "$NS_WORKER" 2>/dev/null | xargs -r kill -9 2>/dev/null
    ip netns pids "$NS_MASTER" 2>/dev/null | xargs -r kill -9 2>/dev/null
    ip netns del "$NS_WORKER" 2>/dev/null
    ip netns del "$NS_MASTER" 2>/dev/null
    ip link del "$IF_WORKER" 2>/dev/null
    rm -f "$LOG"
}
trap cleanup EXIT INT TERM

ip netns add "$NS_WORKER"
ip netns add "$NS_MASTER"
ip link add "$IF_WORKER" type veth peer name "$IF_MASTER"
ip link set "$IF_WORKER" netns "$NS_WORKER"
ip link set "$IF_MASTER" netns "$NS_MASTER"
ip -n "$NS_WORKER" addr add "$IP_WORKER/24" dev "$IF_WORKER"
ip -n "$NS_MASTER" addr add "$IP_MASTER/24" dev "$IF_MASTER"
for ns in "$NS_WORKER" "$NS_MASTER"; do ip -n "$ns" link set lo up; done
ip -n "$NS_WORKER" link set "$IF_WORKER" up
ip -n "$NS_MASTER" link set "$IF_MASTER" up

echo "netns: worker $NS_WORKER ($IP_WORKER), master $NS_MASTER ($IP_MASTER), $ITEMS items"

# the worker side: binds on its veth address, sends results back to the master's address
ip netns exec "$NS_WORKER" "$JAVA" -Xmx256m -cp "$CP" org.bbflow.net.ChildStage \
    "$IP_WORKER" "$IP_MASTER" "$MASTER_PORT" 30000 >"$LOG" 2>&1 &
WORKER_PID=$!

PORT=""
for _ in $(seq 1 600); do
    PORT=$(sed -n 's/^PORT \([0-9]*\)$/\1/p' "$LOG" | head -n1)
    [ -n "$PORT" ] && break
    kill -0 "$WORKER_PID" 2>/dev/null || { echo "worker died:"; cat "$LOG"; exit 2; }
    sleep 0.1
done
[ -n "$PORT" ] || { echo "worker did not start:"; cat "$LOG"; exit 2; }

status=0
ip netns exec "$NS_MASTER" "$JAVA" -Xmx256m -cp "$CP" org.bbflow.net.NetnsMaster \
    "$IP_WORKER" "$PORT" "$IP_MASTER" "$MASTER_PORT" "$ITEMS" || status=$?

if ! wait "$WORKER_PID"; then
    echo "worker failed:"; cat "$LOG"; status=3
fi
WORKER_PID=""
[ "$status" -eq 0 ] && echo "netns: OK" || echo "netns: FAILED ($status)"
exit "$status"
