#!/usr/bin/env bash
# The study's experiments (node recovery, 1:N bandwidth, throughput under loss) and the WAN's (impairment, outage) on
# the services of docker-compose.yml, measured as netem-scenarios (bin/scenarios) measures them
# (docs/operator-guide.md, "Running the study's scenarios with docker-compose"). Runs on the Docker host, from
# anywhere; needs docker with the compose plugin, jq, and a running `docker compose up`.
#
# Impairments come from sch_netem where the kernel has it, otherwise from the harness's backend: tc tbf for the rate,
# nftables `numgen random` drops for the loss, a full nftables drop for a cut (detected once per run; the first line
# of every experiment says which). The commands keep their names on either backend.
#
#   scenario.sh netem NODE RATE LOSS      e.g. netem node-b 256kbit 10%: rate and loss on NODE's eth0 (not its database)
#   scenario.sh clear NODE                removes NODE's impairment
#   scenario.sh stop NODE                 emergency stop: cut off (nftables, both ways), then killed
#   scenario.sh recover NODE              restarted behind the cut, the cut lifted once it is healthy
#   scenario.sh recovery [--quick]        Table 2: b stopped, 200 x 1,024 B into a, b restarted behind the cut, lifted
#   scenario.sh fanout [--quick]          Table 3: 1,000 x 200 B to 1, 3 and 5 subscribers at a's site (profile fanout)
#   scenario.sh loss [--quick | CELL...]  Tables 4-5: 1,000 x 200 B a to b at 128k/256k/2M x 10%/30%, or only the
#                                         CELLs given as LOSS@RATE (10@128kbit); CELL_TIMEOUT seconds each (600)
#   scenario.sh wan [--quick | CELL...]   1,000 x 200 B ROUTINE a to c with rate and loss on the WAN
#   scenario.sh wan-outage [SECONDS]      AIRSITREP a to c across a WAN cut of SECONDS (60), at 256 kbit/s
#   scenario.sh wan-netem RATE LOSS [DELAY]  rate and loss on both gateways' WAN side (DELAY: netem backend only)
#   scenario.sh wan-clear                 removes the WAN's impairment
#   scenario.sh wan-cut                   WAN outage: every packet between the gateways dropped
#   scenario.sh wan-restore               ends the outage (same as wan-clear)
#   scenario.sh all [--quick] [--out DIR] [--transports jms,dds] [--reps N] [--experiments recovery,fanout,loss,wan,wan-outage]
#                                         every experiment; DIR/report.md and DIR/report.json; exit 1 if any message
#                                         is missing or duplicated. --transports recreates the stack per transport
#                                         (GATEWAY_TRANSPORT and GATEWAY_WAN_LINK) and puts the stack's own back after.
# A service restarted or added by an experiment may take START_TIMEOUT seconds to become ready (600).
# SQL, jq programs and container-side shell are single-quoted on purpose: they expand where they run.
# shellcheck disable=SC2016
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
project="${COMPOSE_PROJECT_NAME:-c4i-gateway}"
network="${project}_c4i"
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=deploy/scenarios/figures.sh
. "$here/figures.sh"

compose() { docker compose --project-directory "$root" -f "$root/docker-compose.yml" "$@"; }
container() { compose ps --all --quiet "$1"; }
log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { echo "scenario: $*" >&2; exit 2; }
now() { date +%s.%N; }
# Milliseconds from epoch seconds A to B (every container reads the host's clock).
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
root_exec() { compose exec -T --user root "$@"; }
# How long a service may take to start: 600 s by default, as the images' health check allows. A node started beside
# others on a slow machine needs minutes: with every container held to 0.45 CPU node-b alone took 154 s, and the
# fanout profile's node-d, started beside node-e, was not ready after 300 s, nor after 600 s in a second run
# (2026-12-03). Under a CI at load 21, four services of a container suite started together took 3m53s.
start_seconds="${START_TIMEOUT:-600}"

# The address docker-compose.yml gives a node; the fanout profile's nodes d-g and the pair profile's node-b2 included.
address() {
  case "$1" in
    node-a) echo 172.31.77.11 ;; node-b) echo 172.31.77.12 ;; node-c) echo 172.31.77.13 ;;
    node-d) echo 172.31.77.41 ;; node-e) echo 172.31.77.42 ;; node-f) echo 172.31.77.43 ;; node-g) echo 172.31.77.44 ;;
    node-b2) echo 172.31.77.51 ;;
    *) die "unknown node $1 (node-a ... node-g, node-b2)" ;;
  esac
}
database() { echo "postgres-${1#node-}"; }
# The node's own database's address (Docker's, not fixed). The harness keeps each node's database inside its host,
# so no impairment or cut of the harness ever reaches it; here it is across eth0, so it is exempted by address.
database_address() {
  root_exec "$1" getent hosts "$(database "$1")" | awk '{ print $1; exit }' | grep . || die "$1 cannot resolve $(database "$1")"
}
# What crosses a node's eth0 but not the link under test, so no impairment or byte count touches it: its database,
# and Prometheus, which a site scrapes over its management network (a node's scrape is 67 kB every 5 s: 84% of a
# 128 kbit/s link, which in the first runs starved the bridge into reconnecting over and over).
exempt_addresses() {
  local prometheus
  prometheus="$(root_exec "$1" getent hosts prometheus | awk '{ print $1; exit }')"
  echo "$(database_address "$1")${prometheus:+ $prometheus}"
}
wan_address() {
  case "$1" in
    wan-gateway-s1) echo 172.31.78.11 ;; wan-gateway-s2) echo 172.31.78.12 ;; wan-gateway-s1-standby) echo 172.31.78.13 ;;
    *) die "unknown gateway $1 (wan-gateway-s1, wan-gateway-s2, wan-gateway-s1-standby)" ;;
  esac
}
gateways=(wan-gateway-s1 wan-gateway-s2)
experiments=recovery,fanout,loss,wan,wan-outage
fanout_services=(postgres-d postgres-e postgres-f postgres-g node-d node-e node-f node-g)

# --- The impairment backend -----------------------------------------------------------------------------------------

# Once per run: a netem qdisc on node-a's loopback, removed at once (loopback so that eth0 is never touched).
backend=""
detect_backend() {
  [ -n "$backend" ] && return
  if root_exec node-a sh -c 'tc qdisc add dev lo root handle 9: netem delay 0ms 2>/dev/null && tc qdisc del dev lo root'; then
    backend=netem
  else
    backend=tbf
  fi
  export IMPAIRMENT_BACKEND="$backend"
}
backend_line() {
  if [ "$backend" = netem ]; then echo "impairment: netem"; else echo "impairment: tbf + nftables (this kernel has no sch_netem)"; fi
}
[ -n "${IMPAIRMENT_BACKEND:-}" ] && backend="$IMPAIRMENT_BACKEND"

# 128kbit, 2mbit, 1gbit or a plain number: bits per second.
bits() {
  local v="${1,,}"
  case "$v" in
    *gbit) echo $(( ${v%gbit} * 1000000000 )) ;; *mbit) echo $(( ${v%mbit} * 1000000 )) ;;
    *kbit) echo $(( ${v%kbit} * 1000 )) ;; *bit) echo "${v%bit}" ;; *) echo "$v" ;;
  esac
}

# Rate RATE and loss LOSS on SERVICE's interface IF, EXEMPT (addresses, or "") untouched. RATE "-" means none.
# tbf backend, as the harness: tbf rate R burst max(1600, R x 4 ms) with a 50-packet queue (75,700 B) on the egress,
# under an htb whose other class carries EXEMPT unshaped (this kernel has htb and u32 but no prio). The loss is a
# netdev ingress rule at each end, one decision per frame that crossed the link: a drop on the sender's own egress
# is seen by its TCP as a local failure and retried at once, and a drop in OUTPUT gives the sender EPERM, neither
# of which a lossy link does (NETWORK-EMULATION.md). Both ends of a link are impaired, so both directions are.
impair() {
  local service="$1" dev="$2" rate="$3" loss="${4%\%}" exempt="${5:-}" shaper
  detect_backend
  clear_impairment "$service" "$dev"
  if [ "$backend" = netem ]; then
    shaper="netem loss ${loss}% limit 50"
    [ "$rate" = - ] || shaper="netem rate $rate loss ${loss}% limit 50"
  else
    local bps burst
    bps="$(bits "$rate")"; burst=$(( bps * 4 / 1000 / 8 )); (( burst >= 1600 )) || burst=1600
    shaper="tbf rate ${bps}bit burst $burst limit 75700"
  fi
  if [ "$backend" = netem ] || [ "$rate" != - ]; then
    if [ -n "$exempt" ]; then
      local filters="" address
      for address in $exempt; do
        filters+=" && tc filter add dev $dev parent 1: protocol ip prio 1 u32 match ip dst $address/32 flowid 1:1"
      done
      root_exec "$service" sh -c "tc qdisc replace dev $dev root handle 1: htb default 2 r2q 100000 &&
        tc class add dev $dev parent 1: classid 1:1 htb rate 10gbit && tc class add dev $dev parent 1: classid 1:2 htb rate 10gbit &&
        tc qdisc add dev $dev parent 1:2 handle 20: $shaper $filters"
    else
      # shellcheck disable=SC2086 # the shaper's words
      root_exec "$service" tc qdisc replace dev "$dev" root $shaper
    fi
  fi
  if [ "$backend" = tbf ] && [ "$loss" != 0 ]; then
    local accept=""
    [ -z "$exempt" ] || accept="ip saddr { ${exempt// /, } } accept"
    root_exec "$service" nft -f - <<EOF
table netdev c4i_impair {
  chain ingress {
    type filter hook ingress device "$dev" priority 0;
    meta protocol arp accept
    $accept
    counter
    numgen random mod 100 < $loss counter drop
  }
}
EOF
  fi
  log "$service: $backend rate $rate loss $loss% on $dev${exempt:+ (not to or from ${exempt// /, })}"
}
clear_impairment() {
  root_exec "$1" sh -c "tc qdisc del dev $2 root 2>/dev/null; nft delete table netdev c4i_impair 2>/dev/null; nft delete table netdev c4i_cut 2>/dev/null; true"
}
# The loss the nft rule applied on SERVICE so far (percent of frames it judged), or "" (netem backend).
measured_loss() {
  root_exec "$1" nft -j list table netdev c4i_impair 2>/dev/null | jq -r '
    [.nftables[] | .rule? // empty | .expr[] | .counter? // empty | .packets] as $c
    | if ($c | length) == 2 and $c[0] > 0 then ($c[1] * 100 / $c[0] * 10 | round / 10) else "" end' || true
}

# A node's own interface: eth0, found by its address all the same (Docker does not fix the order).
node_interface() {
  local address; address="$(address "$1")"
  compose exec -T "$1" ip -o -4 addr show | awk -v a="$address" '$4 ~ "^"a"/" { sub(/@.*/, "", $2); print $2 }' | grep . \
    || die "$1 has no interface with $address"
}
netem_node() { impair "$1" "$(node_interface "$1")" "$2" "$3" "$(exempt_addresses "$1")"; }
clear_node() { clear_impairment "$1" "$(node_interface "$1")"; log "$1: impairment cleared"; }

# The WAN is the gateways' interface on the wan network, found by its address; the LAN side is left alone.
wan_interface() {
  local address; address="$(wan_address "$1")"
  compose exec -T "$1" ip -o -4 addr show | awk -v a="$address" '$4 ~ "^"a"/" { sub(/@.*/, "", $2); print $2 }' | grep . \
    || die "$1 has no interface with $address"
}
wan_impair() {
  local gateway
  for gateway in "${gateways[@]}"; do impair "$gateway" "$(wan_interface "$gateway")" "$1" "$2"; done
}
wan_netem_delay() {
  local gateway
  detect_backend
  [ "$backend" = netem ] || die "delay needs sch_netem, which this kernel does not have"
  for gateway in "${gateways[@]}"; do
    root_exec "$gateway" tc qdisc replace dev "$(wan_interface "$gateway")" root netem rate "$1" loss "$2" delay "$3" limit 1000
  done
}
wan_clear() {
  local gateway
  for gateway in "${gateways[@]}"; do clear_impairment "$gateway" "$(wan_interface "$gateway")"; done
  log "WAN impairment and cut cleared"
}
# An outage as a cut beyond the sites' routers: every frame a gateway receives on the WAN is dropped, both ends, so
# both directions; ARP still answers and nothing is reset, so each gateway finds out by its link's own timeouts
# (jms: about 5 s; dds: the link's 5 s lease or peer-timeout). Any rate shaping in place stays.
wan_cut() {
  local gateway dev
  detect_backend
  for gateway in "${gateways[@]}"; do
    dev="$(wan_interface "$gateway")"
    root_exec "$gateway" sh -c "nft delete table netdev c4i_cut 2>/dev/null; nft -f -" <<EOF
table netdev c4i_cut {
  chain ingress { type filter hook ingress device "$dev" priority -10; meta protocol arp accept; drop; }
}
EOF
  done
  log "WAN cut (nftables drop on both gateways' WAN side)"
}
wan_uncut() {
  local gateway
  for gateway in "${gateways[@]}"; do root_exec "$gateway" sh -c 'nft delete table netdev c4i_cut 2>/dev/null; true'; done
}
# Waits until both gateways' gateway_wan_link_up is WANT (0 or 1), at most SECONDS.
await_link() {
  local want="$1" seconds="$2" deadline=$((SECONDS + $2)) gateway up
  for gateway in "${gateways[@]}"; do
    until up="$(compose exec -T "$gateway" sh -c 'curl -fsS -u "user:$SPRING_SECURITY_USER_PASSWORD" \
                http://127.0.0.1:8091/actuator/prometheus' | awk '/^gateway_wan_link_up[{ ]/ { print $NF; exit }')";
          [ "${up%.*}" = "$want" ]; do
      (( SECONDS < deadline )) || { log "$gateway: gateway_wan_link_up is not $want after $seconds s"; return 1; }
      sleep 1
    done
  done
}

# --- Emergency stop and recovery ------------------------------------------------------------------------------------

# The harness's stop: a blackhole both ways, then SIGKILL. The cut is an inet table in the node's own namespace
# (input and output dropped, loopback and the node's own database exempt); java is the container's PID 1, so the
# kill ends the container and its namespace: the peers then see nothing (no RST, no FIN), as with a powered-off host.
cut_rules() {
  cat <<EOF
table inet c4i_cut {
  chain input { type filter hook input priority -10; iif lo accept; ip saddr $1 accept; drop; }
  chain output { type filter hook output priority -10; oif lo accept; ip daddr $1 accept; drop; }
}
EOF
}
stop_node() {
  local id db; id="$(container "$1")"; db="$(database_address "$1")"
  cut_rules "$db" | root_exec "$1" nft -f -
  docker kill "$id" > /dev/null
  timeout 60 docker wait "$id" > /dev/null || die "$1 did not stop within 60 s"
  log "$1: cut off and killed"
}
# RESTART_THEN_LIFT as the harness: the node boots behind the cut and the cut is lifted once it is READY. A stopped
# container's namespace is gone with its rules, so the node is started disconnected, the cut put into its new
# namespace, and only then connected (same address and name): no packet of the node's passes before the cut is
# there. The cut exempts its database, which the harness's hosts have inside (else it could never become READY).
# Prints the epoch seconds of the start.
restart_behind_cut() {
  local node="$1" id db started; id="$(container "$node")"
  db="$(docker inspect -f "{{(index .NetworkSettings.Networks \"$network\").IPAddress}}" "$(container "$(database "$node")")")"
  docker network disconnect --force "$network" "$id" 2>/dev/null || true
  started="$(now)"
  docker start "$id" > /dev/null
  cut_rules "$db" | docker exec -i --user root "$id" nft -f -
  docker network connect --ip "$(address "$node")" --alias "$node" "$network" "$id"
  log "$node: restarted behind the cut"
  echo "$started"
}
lift_cut() { docker exec --user root "$(container "$1")" nft delete table inet c4i_cut; }
# READY as the harness takes it: the node's readiness probe answers UP (polled every 0.2 s; Docker's health status
# lags by up to its check interval).
wait_ready() {
  local node="$1" seconds="${2:-$start_seconds}" deadline port=8081
  deadline=$((SECONDS + seconds))
  until docker exec "$(container "$node")" curl -fsS -o /dev/null "http://127.0.0.1:$port/actuator/health/readiness" 2>/dev/null; do
    (( SECONDS < deadline )) || die "$node not ready after $seconds s"
    sleep 0.2
  done
}
recover_node() {
  restart_behind_cut "$1" > /dev/null
  wait_ready "$1"
  lift_cut "$1"
  log "$1: healthy, cut lifted"
}

# --- Messages -------------------------------------------------------------------------------------------------------

sql() {
  local db; db="$(database "$1")"; shift
  compose exec -T "$db" sh -c 'psql -X -q -t -A -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d ifdb' <<<"$*"
}
# COUNT valid KMTF messages of TYPE, each exactly SIZE bytes, into NODE's outbox in one statement, ids RUN-1..COUNT,
# with PRECEDENCE if given (else the type's).
insert() {
  local node="$1" type="$2" size="$3" count="$4" run="$5" precedence="${6:-}"
  sql "$node" "
    WITH m AS (
      SELECT g, format(E'UNCLASSIFIED\nMSGID/%s/NETEM/%s//\nDTG/%s//\nNARR/%%s//\n', '$type', g,
                       upper(to_char(now() AT TIME ZONE 'UTC', 'DDHH24MI\"Z\"MONYYYY'))) AS frame
      FROM generate_series(1, $count) g)
    INSERT INTO outbox (message_id, kmtf_type, precedence, body)
    SELECT '$run-' || g, '$type', ${precedence:+'$precedence'}${precedence:-NULL},
           convert_to(format(frame, rpad(rtrim(left(repeat('ENEMY ACTIVITY OBSERVED MOVING NORTH NO CONTACT ROUTE CLEAR ', 100),
                      $size - octet_length(convert_to(format(frame, ''), 'UTF8')))), $size - octet_length(convert_to(format(frame, ''), 'UTF8')), 'X')), 'UTF8')
    FROM m;"
}
delivered() { sql "$1" "SELECT count(DISTINCT message_id) FROM inbox WHERE message_id LIKE '$2-%';"; }
# Message ids of RUN with more than one inbox row (the inbox's key forbids it; counted all the same).
duplicates() { sql "$1" "SELECT count(*) FROM (SELECT message_id FROM inbox WHERE message_id LIKE '$2-%' GROUP BY 1 HAVING count(*) > 1) d;"; }
# Epoch seconds of the first (min) or last (max) arrival of RUN in NODE's inbox.
arrival() { sql "$1" "SELECT extract(epoch FROM $3(received_at)) FROM inbox WHERE message_id LIKE '$2-%';"; }
# Waits until NODE's inbox has COUNT messages of RUN or SECONDS pass; prints how many arrived.
await_delivered() {
  local node="$1" run="$2" count="$3" seconds="$4" deadline n
  deadline=$((SECONDS + seconds))
  while n="$(delivered "$node" "$run")"; (( n < count && SECONDS < deadline )); do sleep 0.5; done
  echo "$n"
}
await_sent() {
  local node="$1" run="$2" seconds="$3" deadline
  deadline=$((SECONDS + seconds))
  until [ "$(sql "$node" "SELECT count(*) FROM outbox WHERE message_id LIKE '$run-%' AND sent_at IS NULL;")" = 0 ]; do
    (( SECONDS < deadline )) || { log "$node: $run not all taken from the outbox after $seconds s"; return 0; }
    sleep 0.5
  done
}
transport() { docker inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$(container node-a)" | sed -n 's/^GATEWAY_NODE_TRANSPORT=//p'; }
wan_link() { docker inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$(container wan-gateway-s1)" | sed -n 's/^GATEWAY_WAN_LINK=//p'; }

# --- Results --------------------------------------------------------------------------------------------------------

# One JSON line per cell into $cells (set by `all`; a temporary file otherwise), and one line on stdout.
cells=""
record() { if [ -n "$cells" ]; then jq -cn "$@" >> "$cells"; fi; }
check() {
  local expected="$1" got="$2" dup="$3"
  if (( got == expected && dup == 0 )); then echo ok; else echo FAILED; fi
}

# --- Experiments ----------------------------------------------------------------------------------------------------

# Reconnect, JMS: the first ESTABLISHED connection from a to b's broker (61616) that was not there before t0, from
# a's /proc/net/tcp polled every 0.1 s (the harness takes the broker's own event; this is within a poll of it).
tcp_hex() { local IFS=.; read -r a b c d <<<"$1"; printf '%02X%02X%02X%02X:%04X' "$d" "$c" "$b" "$a" "$2"; }
broker_connections() { compose exec -T node-a cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v r="$1" '$3 == r && $4 == "01" { print $2 }' | sort; }
watch_reconnect() {
  local remote="$1" before="$2" out="$3" deadline=$((SECONDS + 120))
  while (( SECONDS < deadline )); do
    if broker_connections "$remote" | comm -13 "$before" - | grep -q .; then now > "$out"; return; fi
    sleep 0.1
  done
}

recovery() {
  local reps="$1" count=200 t rep
  t="$(transport)"
  echo "$(backend_line); recovery, $t: $reps x (b stopped, $count x 1,024-byte SITREP into a, b restarted behind the cut, lifted once healthy)"
  for ((rep = 1; rep <= reps; rep++)); do
    local run started ready t0 n dup first last reconnect="" remote before watcher=""
    run="rec-$(date +%s)-$rep"
    stop_node node-b
    insert node-a SITREP 1024 "$count" "$run"
    await_sent node-a "$run" 60
    started="$(restart_behind_cut node-b)"
    wait_ready node-b
    ready="$(now)"
    remote="$(tcp_hex "$(address node-b)" 61616)"; before="$(mktemp)"; broker_connections "$remote" > "$before"
    t0="$(now)"; lift_cut node-b
    if [ "$t" = jms ]; then watch_reconnect "$remote" "$before" "$before.up" & watcher=$!; fi
    n="$(await_delivered node-b "$run" "$count" 300)"
    [ -z "$watcher" ] || wait "$watcher" || true
    [ -s "$before.up" ] && reconnect="$(ms "$t0" "$(cat "$before.up")")"
    rm -f "$before" "$before.up"
    dup="$(duplicates node-b "$run")"; first="$(arrival node-b "$run" min)"; last="$(arrival node-b "$run" max)"
    local first_ms="" last_ms="" boot_ms; boot_ms="$(ms "$started" "$ready")"
    [ -n "$first" ] && first_ms="$(ms "$t0" "$first")"; [ -n "$last" ] && last_ms="$(ms "$t0" "$last")"
    echo "recovery $t rep $rep: $n/$count delivered, duplicates $dup; from t0 (cut lifted, b healthy):" \
         "reconnect ${reconnect:-n/a} ms, first ${first_ms:-none} ms, last (response time) ${last_ms:-none} ms;" \
         "boot $boot_ms ms (before t0); study $(study_recovery "$t"), harness $(harness_recovery "$t") ms: $(check "$count" "$n" "$dup")"
    record --arg t "$t" --argjson rep "$rep" --argjson n "$n" --argjson dup "$dup" --argjson e "$count" \
      --arg rc "$reconnect" --arg f "$first_ms" --arg l "$last_ms" --argjson boot "$boot_ms" \
      --argjson study "$(study_recovery_json "$t")" --argjson harness "$(harness_recovery_json "$t")" \
      '{experiment: "recovery", transport: $t, cell: "1:1 SITREP 1024 B", rep: $rep, expected: $e, delivered: $n,
        duplicates: $dup, figures: {response_ms: ($l | tonumber? // null), reconnect_ms: ($rc | tonumber? // null),
        first_ms: ($f | tonumber? // null), boot_ms: $boot}, unit: "ms", study: $study, harness: $harness}'
  done
}

# Only the fanout nodes the largest N needs (d and e for 3; all four for 5), with their databases: on two cores each
# node more is some 20 s of start.
fanout_up() {
  local nodes=("$@") services=() node
  (( ${#nodes[@]} )) || return 0
  for node in "${nodes[@]}"; do services+=("$(database "$node")" "$node"); done
  log "fanout: starting the fanout profile's nodes ${nodes[*]}"
  # On the transport the stack runs now, which may not be .env's (all --transports).
  GATEWAY_TRANSPORT="$(transport)" GATEWAY_WAN_LINK="$(wan_link)" compose --profile fanout up -d "${services[@]}" >&2
  for node in "${nodes[@]}"; do wait_ready "$node"; done
}
fanout_down() { compose --profile fanout stop "${fanout_services[@]}" >&2 2>/dev/null || true; }
# What a's eth0 sends other than to its database and Prometheus (exempt_addresses): an nftables counter on its egress
# (Ethernet header included, as the harness's switch-port counter). eth0's tx_bytes, which counts everything, is kept
# beside it.
count_on() {
  root_exec node-a sh -c "nft delete table netdev c4i_count 2>/dev/null; nft -f -" <<EOF
table netdev c4i_count {
  chain egress { type filter hook egress device "$(node_interface node-a)" priority 0; ip daddr { ${1// /, } } return; counter; }
}
EOF
}
count_bytes() { root_exec node-a nft -j list table netdev c4i_count | jq '[.nftables[] | .rule? // empty | .expr[] | .counter? // empty | .bytes] | add'; }
count_off() { root_exec node-a sh -c 'nft delete table netdev c4i_count 2>/dev/null; true'; }
tx_bytes() { compose exec -T node-a cat "/sys/class/net/$(node_interface node-a)/statistics/tx_bytes"; }

fanout() {
  local reps="$1" count="$2" t db; shift 2
  t="$(transport)"
  echo "$(backend_line); 1:N, $t: $count x 200 B from a, N = $*, $reps rep(s); bytes a's eth0 sent other than to its database"
  case " $* " in
    *" 5 "*) fanout_up node-d node-e node-f node-g ;;
    *" 3 "*) fanout_up node-d node-e ;;
  esac
  db="$(exempt_addresses node-a)"
  local cell rep
  for cell in "$@"; do
    local type subscribers
    case "$cell" in
      1) type=LOGSITREP; subscribers=(node-b) ;;
      3) type=MARSITREP; subscribers=(node-b node-d node-e) ;;
      5) type=NBCSITREP; subscribers=(node-b node-d node-e node-f node-g) ;;
      *) die "fanout: N is 1, 3 or 5" ;;
    esac
    for ((rep = 1; rep <= reps; rep++)); do
      local run tx0 tx1 bytes start last=0 n=0 dup=0 node got
      run="fan$cell-$(date +%s)-$rep"
      count_on "$db"; tx0="$(tx_bytes)"; start="$(now)"
      insert node-a "$type" 200 "$count" "$run"
      for node in "${subscribers[@]}"; do
        got="$(await_delivered "$node" "$run" "$count" 300)"; n=$((n + got)); dup=$((dup + $(duplicates "$node" "$run")))
        local l; l="$(arrival "$node" "$run" max)"
        [ -n "$l" ] && last="$(awk -v a="$last" -v b="$l" 'BEGIN { print (b > a ? b : a) }')"
      done
      bytes="$(count_bytes)"; tx1="$(tx_bytes)"; count_off
      local interval bps expected=$((count * cell))
      interval="$(ms "$start" "$last")"
      bps="$(awk -v b="$bytes" -v i="$interval" 'BEGIN { printf "%.0f", (i > 0 ? b * 8000 / i : 0) }')"
      echo "fanout $t 1:$cell ($type to ${subscribers[*]}) rep $rep: $n/$expected delivered, duplicates $dup; a sent $bytes bytes" \
           "(eth0 $((tx1 - tx0)) with its database) in $interval ms = $bps bps; study $(study_fanout "$t" "$cell") bps," \
           "harness $(harness_fanout_bytes "$t" "$cell") bytes, $(harness_fanout_bps "$t" "$cell") bps: $(check "$expected" "$n" "$dup")"
      record --arg t "$t" --argjson N "$cell" --arg type "$type" --argjson rep "$rep" --argjson n "$n" --argjson dup "$dup" \
        --argjson e "$expected" --argjson bytes "$bytes" --argjson eth0 "$((tx1 - tx0))" --argjson i "$interval" --argjson bps "$bps" \
        --argjson study "$(study_fanout_json "$t" "$cell")" --argjson harness "$(harness_fanout_json "$t" "$cell")" \
        '{experiment: "fanout", transport: $t, cell: "1:\($N) \($type)", subscribers: $N, rep: $rep, expected: $e,
          delivered: $n, duplicates: $dup, figures: {wire_bytes: $bytes, eth0_tx_bytes: $eth0, interval_ms: $i, bps: $bps},
          unit: "bps", study: $study, harness: $harness}'
    done
  done
  fanout_down
}

loss() {
  local count="$1" timeout="$2" t; shift 2
  t="$(transport)"
  echo "$(backend_line); loss, $t: $count x 200 B LOGSITREP a to b, rate and loss on both nodes' eth0, cells $*"
  local cell
  for cell in "$@"; do
    local pct="${cell%@*}" rate="${cell#*@}" run n dup start end la lb
    run="loss-$(date +%s)"
    netem_node node-a "$rate" "$pct"; netem_node node-b "$rate" "$pct"
    start="$(now)"
    insert node-a LOGSITREP 200 "$count" "$run"
    n="$(await_delivered node-b "$run" "$count" "$timeout")"
    # Delivered over the time to the last delivery, or over the deadline if not all arrived (as the harness counts).
    if (( n == count )); then end="$(arrival node-b "$run" max)"; else end="$(now)"; fi
    la="$(measured_loss node-a)"; lb="$(measured_loss node-b)"
    clear_node node-a; clear_node node-b
    local rest; rest="$(await_delivered node-b "$run" "$count" 300)"
    dup="$(duplicates node-b "$run")"
    local per_s; per_s="$(awk -v n="$n" -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", n / (b - a) }')"
    echo "loss $t $pct% at $rate: $n/$count in time, $rest/$count after the impairment was lifted, duplicates $dup:" \
         "$per_s msg/s; study $(study_loss "$t" "$pct" "$rate"), harness $(harness_loss "$t" "$pct" "$rate") msg/s;" \
         "measured loss a ${la:-n/a}% b ${lb:-n/a}%: $(check "$count" "$rest" "$dup")"
    record --arg t "$t" --arg cell "$pct%@$rate" --argjson n "$n" --argjson rest "$rest" --argjson dup "$dup" --argjson e "$count" \
      --argjson r "$per_s" --arg la "$la" --arg lb "$lb" \
      --argjson study "$(study_loss_json "$t" "$pct" "$rate")" --argjson harness "$(harness_loss_json "$t" "$pct" "$rate")" \
      '{experiment: "loss", transport: $t, cell: $cell, rep: 1, expected: $e, delivered: $rest, delivered_in_time: $n,
        duplicates: $dup, figures: {msg_per_s: $r, measured_loss_a: ($la | tonumber? // null),
        measured_loss_b: ($lb | tonumber? // null)}, unit: "msg/s", study: $study, harness: $harness}'
  done
}

wan() {
  local count="$1" timeout="$2" t l; shift 2
  t="$(transport)"; l="$(wan_link)"
  echo "$(backend_line); WAN impairment, nodes $t, WAN link $l: $count x 200 B ROUTINE AIRSITREP a to c, rate and loss on both gateways' WAN side, cells $*"
  local cell
  for cell in "$@"; do
    local pct="${cell%@*}" rate="${cell#*@}" run n dup start end
    run="wan-$(date +%s)"
    wan_impair "$rate" "$pct"
    start="$(now)"
    insert node-a AIRSITREP 200 "$count" "$run" ROUTINE
    n="$(await_delivered node-c "$run" "$count" "$timeout")"
    if (( n == count )); then end="$(arrival node-c "$run" max)"; else end="$(now)"; fi
    wan_clear
    local rest; rest="$(await_delivered node-c "$run" "$count" 300)"
    dup="$(duplicates node-c "$run")"
    local per_s; per_s="$(awk -v n="$n" -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", n / (b - a) }')"
    echo "wan $l $pct% at $rate: c has $n/$count in time, $rest/$count after, duplicates $dup: $per_s msg/s;" \
         "harness $(harness_wan "$l" "$pct" "$rate") msg/s: $(check "$count" "$rest" "$dup")"
    record --arg t "$t" --arg l "$l" --arg cell "$pct%@$rate" --argjson n "$n" --argjson rest "$rest" --argjson dup "$dup" \
      --argjson e "$count" --argjson r "$per_s" --argjson harness "$(harness_wan_json "$l" "$pct" "$rate")" \
      '{experiment: "wan", transport: $t, wan_link: $l, cell: $cell, rep: 1, expected: $e, delivered: $rest,
        delivered_in_time: $n, duplicates: $dup, figures: {msg_per_s: $r}, unit: "msg/s", study: null, harness: $harness}'
  done
}

# An outage under traffic at 256 kbit/s (the harness's cell): cut, AIRSITREP from a (b at its site has them during
# the cut, c not), restore after SECONDS; drain = restore to c's last message.
wan_outage() {
  local seconds="$1" count="$2" t l run n nb dup restored last drain
  t="$(transport)"; l="$(wan_link)"; run="out-$(date +%s)"
  echo "$(backend_line); WAN outage, nodes $t, WAN link $l: $count x 200 B ROUTINE AIRSITREP a to c, WAN at 256kbit cut for $seconds s"
  wan_impair 256kbit 0
  wan_cut
  await_link 0 60 && log "both gateways see the link down"
  insert node-a AIRSITREP 200 "$count" "$run" ROUTINE
  nb="$(await_delivered node-b "$run" "$count" 120)"
  local during; during="$(delivered node-c "$run")"
  log "during the cut: node-b has $nb/$count, node-c has $during/$count"
  sleep "$seconds"
  restored="$(now)"
  wan_uncut
  await_link 1 120 && log "both gateways see the link up"
  n="$(await_delivered node-c "$run" "$count" 300)"
  wan_clear
  dup="$(duplicates node-c "$run")"; last="$(arrival node-c "$run" max)"
  drain="$([ -n "$last" ] && ms "$restored" "$last" || echo null)"
  echo "wan-outage $l ${seconds}s: b had $nb/$count during the cut, c $during; c has $n/$count, duplicates $dup;" \
       "last message $drain ms after the restore; harness $(harness_outage "$l") ms (1,000 messages, 60 s): $(check "$count" "$n" "$dup")"
  record --arg t "$t" --arg l "$l" --argjson s "$seconds" --argjson n "$n" --argjson nb "$nb" --argjson during "$during" \
    --argjson dup "$dup" --argjson e "$count" --argjson drain "$drain" --argjson harness "$(harness_outage_json "$l")" \
    '{experiment: "wan-outage", transport: $t, wan_link: $l, cell: "cut \($s) s at 256kbit", rep: 1, expected: $e,
      delivered: $n, duplicates: $dup, figures: {drain_ms: $drain, b_during_cut: $nb, c_during_cut: $during},
      unit: "ms", study: null, harness: $harness}'
}

# --- Cleanup --------------------------------------------------------------------------------------------------------

# Whatever an experiment leaves when it fails: impairments, cuts, counters, a stopped node-b, the fanout nodes.
cleanup() {
  local status=$? service
  trap - EXIT INT TERM
  log "cleanup"
  for service in node-a node-b; do
    if [ "$(docker inspect -f '{{.State.Running}}' "$(container "$service")" 2>/dev/null)" = true ]; then
      root_exec "$service" sh -c "tc qdisc del dev eth0 root 2>/dev/null; nft delete table netdev c4i_impair 2>/dev/null;
        nft delete table netdev c4i_count 2>/dev/null; nft delete table inet c4i_cut 2>/dev/null; true" || true
    fi
  done
  wan_clear 2>/dev/null || true
  if [ "$(docker inspect -f '{{.State.Running}}' "$(container node-b)" 2>/dev/null)" != true ] \
     || ! docker inspect -f '{{json .NetworkSettings.Networks}}' "$(container node-b)" | grep -q "\"$network\""; then
    log "node-b is down or disconnected: bringing it back"
    docker network disconnect --force "$network" "$(container node-b)" 2>/dev/null || true
    docker start "$(container node-b)" > /dev/null 2>&1 || true
    docker network connect --ip "$(address node-b)" --alias node-b "$network" "$(container node-b)" 2>/dev/null || true
  fi
  [ "${fanout_started:-}" = yes ] && fanout_down
  exit "$status"
}
on_exit() { trap cleanup EXIT; trap 'exit 130' INT TERM; }

await_stack() {
  local service deadline=$((SECONDS + start_seconds))
  for service in node-a node-b node-c wan-gateway-s1 wan-gateway-s2; do
    until [ "$(docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{end}}' "$(container "$service")" 2>/dev/null)" = healthy ]; do
      (( SECONDS < deadline )) || die "$service not healthy after $start_seconds s"
      sleep 2
    done
  done
  await_link 1 120 || die "the WAN link is not up"
}

# --- all: every experiment, one report ------------------------------------------------------------------------------

# Runs the experiments named in $experiments (all five unless --experiments), quick or full.
wants() { [[ ",$experiments," == *",$1,"* ]]; }
run_transport() {
  local quick="$1" reps="$2"
  if [ "$quick" = yes ]; then
    if wants recovery; then recovery 1; fi
    if wants fanout; then fanout 1 200 1 3; fi
    if wants loss; then loss 1000 300 10@2mbit; fi
    if wants wan; then wan 1000 300 10@256kbit; fi
    if wants wan-outage; then wan_outage 20 200; fi
  else
    if wants recovery; then recovery "$reps"; fi
    if wants fanout; then fanout "$reps" 1000 1 3 5; fi
    if wants loss; then loss 1000 "${CELL_TIMEOUT:-300}" 10@128kbit 10@256kbit 10@2mbit 30@128kbit 30@256kbit 30@2mbit; fi
    if wants wan; then wan 1000 "${CELL_TIMEOUT:-300}" 10@256kbit 30@256kbit 10@2mbit; fi
    if wants wan-outage; then wan_outage 60 1000; fi
  fi
}

all() {
  local quick=no out="" transports="" reps="" args="$*"
  while (( $# )); do
    case "$1" in
      --quick) quick=yes ;; --out) out="$2"; shift ;; --experiments) experiments="$2"; shift ;; --transports) transports="$2"; shift ;; --reps) reps="$2"; shift ;;
      *) die "all: unknown option $1" ;;
    esac
    shift
  done
  [ -n "$reps" ] || { [ "$quick" = yes ] && reps=1 || reps=3; }
  out="${out:-$root/target/compose-scenarios/$(date -u +%Y%m%d-%H%M%S)}"
  mkdir -p "$out"
  cells="$out/cells.jsonl"; : > "$cells"
  local started original load; started="$(date -u +%FT%TZ)"; original="$(transport)"; load="$(cut -d' ' -f1-3 /proc/loadavg)"
  on_exit
  detect_backend
  local t abort_lines=""
  fanout_started=yes
  # A failed experiment ends its transport's run, not the report: the report then says it was aborted, with the
  # run's last lines, where its error is.
  logged_run() { run_transport "$quick" "$reps" 2>&1 | tee -a "$out/run.log" || abort_lines+="$(tail -n 8 "$out/run.log")"$'\n'; }
  if [ -z "$transports" ]; then
    await_stack
    logged_run
  else
    for t in ${transports//,/ }; do
      log "stack: GATEWAY_TRANSPORT=$t GATEWAY_WAN_LINK=$t"
      GATEWAY_TRANSPORT="$t" GATEWAY_WAN_LINK="$t" compose up -d >&2
      await_stack
      logged_run
    done
    if [ "$(transport)" != "$original" ]; then
      log "stack: back to $original"
      GATEWAY_TRANSPORT="$original" GATEWAY_WAN_LINK="$original" compose up -d >&2
      await_stack
    fi
  fi
  write_report "$out" "$started" "$quick" "$load" "$args" "$abort_lines"
  jq -e '.passed' "$out/report.json" > /dev/null
}

write_report() {
  local out="$1" started="$2" quick="$3" load="$4" args="$5" abort_lines="$6"
  jq -s --arg started "$started" --arg finished "$(date -u +%FT%TZ)" --arg backend "$backend" --arg line "$(backend_line)" \
     --argjson quick "$([ "$quick" = yes ] && echo true || echo false)" --arg load "$load" --arg kernel "$(uname -r)" \
     --argjson cpus "$(nproc)" --arg command "deploy/scenarios/scenario.sh all $args" --arg abort_lines "$abort_lines" '
    def complete: .delivered == .expected and .duplicates == 0;
    (map(. + {complete: complete})) as $cells
    | {tool: "deploy/scenarios/scenario.sh", command: $command, started: $started, finished: $finished,
       backend: $backend, backend_line: $line, quick: $quick,
       machine: {cpus: $cpus, kernel: $kernel, load_average_at_start: $load},
       transports: ($cells | map(.transport) | unique),
       experiments: ($cells | group_by(.experiment) | map({key: .[0].experiment, value: .}) | from_entries),
       cells: $cells,
       expected: ($cells | map(.expected) | add // 0), delivered: ($cells | map(.delivered) | add // 0),
       missing: ($cells | map(.expected - .delivered) | add // 0), duplicates: ($cells | map(.duplicates) | add // 0),
       aborted: ($abort_lines != ""), aborted_with: (if $abort_lines == "" then null else $abort_lines end),
       passed: ((($cells | length) > 0) and $abort_lines == "" and ($cells | all(complete)))}' "$cells" > "$out/report.json"
  markdown "$out/report.json" > "$out/report.md"
  log "report: $out/report.md, $out/report.json"
}

# report.md from report.json: one table per experiment, ours beside the study's and the harness's.
markdown() {
  jq -r '
    def f: if . == null then "" elif type == "number" then (if . >= 100 or . == (. | floor) then (. | round | tostring) else (. * 10 | round / 10 | tostring) end) else tostring end;
    def fig: if . == null then "" else "\(.mean | f) (\(.sd | f))" end;
    def mid: if . == "jms" then "TCP (JMS)" elif . == "dds" then "DDS" else . end;
    "# Compose scenarios\n",
    "- \(.backend_line)",
    "- command: `\(.command)`",
    "- run: \(.started) to \(.finished); transports \(.transports | join(", ")); \(if .quick then "quick" else "full" end)",
    "- machine: \(.machine.cpus) CPUs, kernel \(.machine.kernel), load average at start \(.machine.load_average_at_start)",
    "- delivered \(.delivered)/\(.expected), missing \(.missing), duplicates \(.duplicates)\(if .aborted then ", an experiment aborted (run.log)" else "" end): \(if .passed then "passed" else "FAILED" end)\n",
    (if .aborted then "Its last lines, where it aborted:\n\n```\n\(.aborted_with)```\n" else empty end),
    (if .experiments.recovery then
      "## Recovery (Table 2): response time, ms from the cut lifted (b healthy behind it) to its last message\n",
      "| middleware | rep | response ms | study mean (sd) | harness mean (sd) | reconnect ms | first ms | boot ms (apart) | delivered | duplicates |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      (.experiments.recovery[] | "| \(.transport | mid) | \(.rep) | \(.figures.response_ms | f) | \(.study | fig) | \(.harness | fig) | \(.figures.reconnect_ms | f) | \(.figures.first_ms | f) | \(.figures.boot_ms | f) | \(.delivered)/\(.expected) | \(.duplicates) |"),
      "" else empty end),
    (if .experiments.fanout then
      "## 1:N (Table 3): what a put on the wire (bytes other than to its database, Ethernet headers included) and bps over the sending interval\n",
      "| middleware | N | rep | wire bytes | harness bytes | bps | study bps mean (sd) | harness bps mean (sd) | interval ms | eth0 bytes (with its database) | delivered | duplicates |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      (.experiments.fanout[] | "| \(.transport | mid) | \(.subscribers) | \(.rep) | \(.figures.wire_bytes | f) | \(.harness.bytes | fig) | \(.figures.bps | f) | \(.study | fig) | \(.harness.bps | fig) | \(.figures.interval_ms | f) | \(.figures.eth0_tx_bytes | f) | \(.delivered)/\(.expected) | \(.duplicates) |"),
      "" else empty end),
    (if .experiments.loss then
      "## Loss (Tables 4 and 5): msg/s a to b, 200 B, rate and loss on both nodes\n",
      "| middleware | cell | msg/s | study mean (sd) | harness mean (sd) | in time | delivered | duplicates | measured loss a / b % |",
      "|---|---|---:|---:|---:|---:|---:|---:|---|",
      (.experiments.loss[] | "| \(.transport | mid) | \(.cell) | \(.figures.msg_per_s | f) | \(.study | fig) | \(.harness | fig) | \(.delivered_in_time)/\(.expected) | \(.delivered)/\(.expected) | \(.duplicates) | \(.figures.measured_loss_a | f) / \(.figures.measured_loss_b | f) |"),
      "" else empty end),
    (if .experiments.wan then
      "## WAN impairment: msg/s a to c across the gateways, 200 B ROUTINE, rate and loss on the WAN (no study figure)\n",
      "| nodes | WAN link | cell | msg/s | harness mean (sd) | in time | delivered | duplicates |",
      "|---|---|---|---:|---:|---:|---:|---:|",
      (.experiments.wan[] | "| \(.transport) | \(.wan_link) | \(.cell) | \(.figures.msg_per_s | f) | \(.harness | fig) | \(.delivered_in_time)/\(.expected) | \(.delivered)/\(.expected) | \(.duplicates) |"),
      "" else empty end),
    (if .experiments["wan-outage"] then
      "## WAN outage: ms from the restore to c'"'"'s last message (harness: 1,000 messages, 60 s cut, 256 kbit/s)\n",
      "| nodes | WAN link | cell | drain ms | harness mean (sd) | b during the cut | c during the cut | delivered | duplicates |",
      "|---|---|---|---:|---:|---:|---:|---:|---:|",
      (.experiments["wan-outage"][] | "| \(.transport) | \(.wan_link) | \(.cell) | \(.figures.drain_ms | f) | \(.harness | fig) | \(.figures.b_during_cut) | \(.figures.c_during_cut) | \(.delivered)/\(.expected) | \(.duplicates) |"),
      "" else empty end),
    "Study: Lee and Ko 2020 (netem-scenarios report/StudyFigures.java). Harness: docs/results.md (recovery and 1:N run 1, loss run 3, WAN runs 5)."
  ' "$1"
}

# --- Commands -------------------------------------------------------------------------------------------------------

quick_flag() { [ "${1:-}" = --quick ]; }
# Cells as LOSS@RATE (10@128kbit, 30@2mbit): refused with the one that is not, before anything is impaired.
cells_valid() {
  local cell
  for cell in "$@"; do
    [[ "$cell" =~ ^[0-9]{1,2}@[0-9]+(kbit|mbit)$ ]] || die "not a cell (LOSS@RATE, as 10@128kbit): $cell"
  done
}
one() { cells="$(mktemp)"; on_exit; detect_backend; "$@"; rm -f "$cells"; }
case "${1:-}" in
  netem) (( $# == 4 )) || die "usage: netem NODE RATE LOSS"; address "$2" > /dev/null; netem_node "$2" "$3" "$4" ;;
  clear) (( $# == 2 )) || die "usage: clear NODE"; clear_node "$2" ;;
  stop) (( $# == 2 )) || die "usage: stop NODE"; address "$2" > /dev/null; stop_node "$2" ;;
  recover) (( $# == 2 )) || die "usage: recover NODE"; address "$2" > /dev/null; recover_node "$2" ;;
  recovery) if quick_flag "${2:-}"; then one recovery 1; else one recovery 3; fi ;;
  fanout) fanout_started=yes; if quick_flag "${2:-}"; then one fanout 1 200 1 3; else one fanout 1 1000 1 3 5; fi ;;
  loss) if quick_flag "${2:-}"; then one loss 1000 300 10@2mbit
        elif (( $# > 1 )); then cells_valid "${@:2}"; one loss 1000 "${CELL_TIMEOUT:-600}" "${@:2}"
        else one loss 1000 "${CELL_TIMEOUT:-600}" 10@128kbit 10@256kbit 10@2mbit 30@128kbit 30@256kbit 30@2mbit; fi ;;
  wan) if quick_flag "${2:-}"; then one wan 1000 300 10@256kbit
       elif (( $# > 1 )); then cells_valid "${@:2}"; one wan 1000 "${CELL_TIMEOUT:-600}" "${@:2}"
       else one wan 1000 "${CELL_TIMEOUT:-600}" 10@256kbit 30@256kbit 10@2mbit; fi ;;
  wan-netem) (( $# == 3 || $# == 4 )) || die "usage: wan-netem RATE LOSS [DELAY]"
             if (( $# == 4 )); then wan_netem_delay "$2" "$3" "$4"; else wan_impair "$2" "$3"; fi ;;
  wan-clear|wan-restore) wan_clear ;;
  wan-cut) wan_cut ;;
  wan-outage) one wan_outage "${2:-60}" 200 ;;
  all) shift; all "$@" ;;
  *) sed -n '2,/^# SQL, jq/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
esac
