#!/usr/bin/env bash
# Three "hosts" on one machine for the launcher: network namespaces m, w1 and w2, each with one
# address on a bridge that lives in a fourth namespace (the switch), so nothing touches the
# machine's own network. `launch` runs here and starts every group through the remote-exec template
# `ip netns exec <namespace of {group}> {args}`; each group listens on its namespace's address,
# beyond loopback, so the job carries a shared secret.
# Needs root (or CAP_NET_ADMIN + CAP_SYS_ADMIN), iproute2 and the bridge and veth kernel modules.
#
# usage: launch-netns.sh <java classpath with the examples classes> <n> [failing-group | kill:<group>]
# With kill:<group> the job runs with --resend (its farm re-sends a lost worker's tasks), the worker
# groups are survivable, and once the master has a quarter of the results every process in that
# group's namespace gets kill -9: the job must still complete with the right sum.
# exit status: the launcher's (0 when every group succeeded and the master's sum matched).
set -euo pipefail

CP="${1:?usage: launch-netns.sh <classpath> <n> [failing-group | kill:<group>]}"
N="${2:?usage: launch-netns.sh <classpath> <n> [failing-group | kill:<group>]}"
FAILING="${3:-}"
KILL=""
case "$FAILING" in kill:*) KILL="${FAILING#kill:}"; FAILING="" ;; esac
JAVA="${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}"

ID="bl$(( $$ % 100000 ))"           # unique per run; interface names must stay <= 15 chars
SWITCH="${ID}sw"
OCTET=$(( $$ % 250 + 1 ))
DIR="$(mktemp -d -t bbflow-launch-netns.XXXXXX)"
GROUPS_=(m w1 w2)

cleanup() {
    set +e
    for g in "${GROUPS_[@]}"; do
        ip netns pids "${ID}${g}" 2>/dev/null | xargs -r kill -9 2>/dev/null
    done
    for g in "${GROUPS_[@]}"; do ip netns del "${ID}${g}" 2>/dev/null; done
    ip netns del "$SWITCH" 2>/dev/null
    rm -rf "$DIR"
}
trap cleanup EXIT INT TERM

ip netns add "$SWITCH"
ip -n "$SWITCH" link add br0 type bridge
ip -n "$SWITCH" link set br0 up
i=0
for g in "${GROUPS_[@]}"; do
    i=$((i + 1))
    ns="${ID}${g}"
    ip netns add "$ns"
    ip link add "${ns}" type veth peer name "${ns}s"
    ip link set "${ns}" netns "$ns"
    ip link set "${ns}s" netns "$SWITCH"
    ip -n "$SWITCH" link set "${ns}s" master br0
    ip -n "$SWITCH" link set "${ns}s" up
    ip -n "$ns" addr add "10.233.${OCTET}.${i}/24" dev "${ns}"
    ip -n "$ns" link set lo up
    ip -n "$ns" link set "${ns}" up
done

printf 'launch-netns-test-secret-0123456789\n' > "$DIR/secret"
ARGS="\"$N\""
[ -n "$FAILING" ] && ARGS="$ARGS, \"$FAILING\""
SURVIVABLE=""
if [ -n "$KILL" ]; then
    ARGS="$ARGS, \"--resend\""
    SURVIVABLE=', "survivable": true'
fi
cat > "$DIR/job.json" <<EOF
{
  "main": "org.bbflow.examples.distributed.SquaresJob",
  "args": [$ARGS],
  "classpath": "$CP",
  "jvmOptions": ["-Xmx128m", "-XX:TieredStopAtLevel=1"],
  "remote": "ip netns exec ${ID}{group} {args}",
  "master": "m",
  "groups": {
    "m":  {"host": "10.233.${OCTET}.1", "port": 7100},
    "w1": {"host": "10.233.${OCTET}.2", "port": 7100${SURVIVABLE}},
    "w2": {"host": "10.233.${OCTET}.3", "port": 7100${SURVIVABLE}}
  },
  "secretFile": "$DIR/secret",
  "peerTimeoutSeconds": 10
}
EOF

echo "launch-netns: namespaces ${ID}m ${ID}w1 ${ID}w2 on bridge in $SWITCH, 10.233.${OCTET}.1-3, n=$N${FAILING:+, failing group $FAILING}${KILL:+, kill -9 of group $KILL}"
status=0
if [ -z "$KILL" ]; then
    "$JAVA" -cp "$CP" org.bbflow.examples.Main launch --timeout 90s --grace 30s "$DIR/job.json" || status=$?
else
    # the file exists before tail opens it: the launcher's own redirection may come after tail starts
    # (seen in CI on 2026-11-27: "tail: cannot open .../out", and the test saw none of the job's output)
    : > "$DIR/out"
    "$JAVA" -cp "$CP" org.bbflow.examples.Main launch --timeout 90s --grace 30s "$DIR/job.json" >> "$DIR/out" 2>&1 &
    launcher=$!
    tail -n +1 -f "$DIR/out" --pid "$launcher" &
    # bounded: at most 90 s for the first quarter of the results, and never past the launcher's end
    for _ in $(seq 1 900); do
        grep -q '^\[m\] *squares: [0-9,]* of ' "$DIR/out" && break
        kill -0 "$launcher" 2>/dev/null || break
        sleep 0.1
    done
    pids=$(ip netns pids "${ID}${KILL}" 2>/dev/null | tr '\n' ' ')
    echo "launch-netns: kill -9 of group $KILL (pids: ${pids:-none})"
    [ -n "$pids" ] && kill -9 $pids
    wait "$launcher" || status=$?
    sleep 0.2 # let tail print the last lines
fi
echo "launch-netns: launcher exited with $status"
exit "$status"
