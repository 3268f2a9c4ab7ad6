#!/usr/bin/env bash
# The study's experiments (node recovery, 1:N bandwidth, throughput under loss) on the nodes of docker-compose.yml,
# mirroring netem-scenarios (docs/operator-guide.md, "Running the study's scenarios with docker-compose").
# Runs on the Docker host, from anywhere; needs docker with the compose plugin and a running `docker compose up`.
#
#   deploy/scenarios/scenario.sh netem NODE RATE LOSS   e.g. netem node-b 256kbit 10%: tc netem on NODE's egress
#   deploy/scenarios/scenario.sh clear NODE             removes NODE's netem
#   deploy/scenarios/scenario.sh stop NODE              emergency stop: network disconnect, then kill
#   deploy/scenarios/scenario.sh recover NODE           start, then network connect (same address and name)
#   deploy/scenarios/scenario.sh recovery               Table 2: b stopped, 200 x 1,024 B into a, b recovered
#   deploy/scenarios/scenario.sh fanout                 Table 3: 1,000 x 200 B to 1 and to 2 subscribers, wire bytes
#   deploy/scenarios/scenario.sh loss [--quick]         Tables 4-5: 1,000 x 200 B a to b at 128k/256k/2M x 10%/30%
#   deploy/scenarios/scenario.sh wan-netem RATE LOSS [DELAY]  e.g. 256kbit 5% 100ms: netem on both gateways' WAN side
#   deploy/scenarios/scenario.sh wan-clear              removes the WAN's netem
#   deploy/scenarios/scenario.sh wan-cut                WAN outage: every packet between the gateways dropped
#   deploy/scenarios/scenario.sh wan-restore            ends the outage (same as wan-clear)
#   deploy/scenarios/scenario.sh wan-outage [SECONDS]   200 x 200 B AIRSITREP a to c across a WAN cut (60 s)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
project="${COMPOSE_PROJECT_NAME:-c4i-gateway}"
network="${project}_c4i"
wan_network="${project}_wan"

compose() { docker compose --project-directory "$root" -f "$root/docker-compose.yml" "$@"; }
container() { compose ps --all --quiet "$1"; }
log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { echo "scenario: $*" >&2; exit 2; }

# The address docker-compose.yml gives a node, which it gets back when it is reconnected.
address() {
  case "$1" in
    node-a) echo 172.31.77.11 ;; node-b) echo 172.31.77.12 ;; node-c) echo 172.31.77.13 ;;
    *) die "unknown node $1 (node-a, node-b, node-c)" ;;
  esac
}
database() { echo "postgres-${1#node-}"; }
# A WAN gateway's address on the WAN network (docker-compose.yml), by which its WAN interface is found.
wan_address() {
  case "$1" in
    wan-gateway-s1) echo 172.31.78.11 ;; wan-gateway-s2) echo 172.31.78.12 ;;
    *) die "unknown gateway $1 (wan-gateway-s1, wan-gateway-s2)" ;;
  esac
}
gateways=(wan-gateway-s1 wan-gateway-s2)

# SQL on a node's interface database; prints unaligned, tuples only.
sql() {
  local db; db="$(database "$1")"; shift
  compose exec -T "$db" sh -c 'psql -X -q -t -A -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d ifdb' <<<"$*"
}

# tc runs as root inside the node's container (cap_add NET_ADMIN in docker-compose.yml); egress of eth0 only,
# so a link is impaired both ways by shaping both of its ends, as the harness does.
netem() {
  local node="$1" rate="$2" loss="$3"
  compose exec -T --user root "$node" tc qdisc replace dev eth0 root netem rate "$rate" loss "$loss" limit 50
  log "$node: netem rate $rate loss $loss"
}
clear_netem() {
  compose exec -T --user root "$1" tc qdisc del dev eth0 root 2>/dev/null || true
  log "$1: netem cleared"
}

# The WAN is the gateways' interface on the WAN network (eth0 or eth1: Docker does not fix the order), found by
# its address; the LAN interface is left alone, so the sites' own traffic is not impaired. Egress of both gateways,
# so both directions of the WAN are shaped.
wan_interface() {
  local address; address="$(wan_address "$1")"
  compose exec -T "$1" ip -o -4 addr show | awk -v a="$address" '$4 ~ "^"a"/" { sub(/@.*/, "", $2); print $2 }' | grep . \
    || die "$1 has no interface with $address ($wan_network)"
}
wan_netem() {
  local gateway interface
  for gateway in "${gateways[@]}"; do
    interface="$(wan_interface "$gateway")"
    compose exec -T --user root "$gateway" tc qdisc replace dev "$interface" root netem "$@"
    log "$gateway: netem $* on $interface (WAN)"
  done
}
wan_clear() {
  local gateway interface
  for gateway in "${gateways[@]}"; do
    interface="$(wan_interface "$gateway")"
    compose exec -T --user root "$gateway" tc qdisc del dev "$interface" root 2>/dev/null || true
    log "$gateway: WAN netem cleared"
  done
}
# An outage as a cut beyond the sites' routers: every packet dropped both ways, the interfaces stay up, nothing is
# reset; each gateway finds out by its link's own timeouts (jms: about 5 s; dds: the 10 s lease or peer-timeout).
wan_cut() { wan_netem loss 100%; }
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

# The peer sees nothing from then on (no RST, no FIN), as with a powered-off host; not docker pause (SIGSTOP).
stop_node() {
  local id; id="$(container "$1")"
  docker network disconnect --force "$network" "$id"
  docker kill "$id" > /dev/null
  log "$1: disconnected and killed"
}
recover_node() {
  local id; id="$(container "$1")"
  docker start "$id" > /dev/null
  docker network connect --ip "$(address "$1")" --alias "$1" "$network" "$id"
  log "$1: started and reconnected"
}
wait_ready() {
  local node="$1" deadline=$((SECONDS + 180))
  until [ "$(docker inspect -f '{{.State.Health.Status}}' "$(container "$node")")" = healthy ]; do
    (( SECONDS < deadline )) || die "$node not ready after 180 s"
    sleep 1
  done
}

# COUNT valid KMTF messages of TYPE, each exactly SIZE bytes, into NODE's outbox in one statement, ids RUN-1..COUNT.
insert() {
  local node="$1" type="$2" size="$3" count="$4" run="$5"
  sql "$node" "
    WITH m AS (
      SELECT g, format(E'UNCLASSIFIED\nMSGID/%s/NETEM/%s//\nDTG/%s//\nNARR/%%s//\n', '$type', g,
                       upper(to_char(now() AT TIME ZONE 'UTC', 'DDHH24MI\"Z\"MONYYYY'))) AS frame
      FROM generate_series(1, $count) g)
    INSERT INTO outbox (message_id, kmtf_type, body)
    SELECT '$run-' || g, '$type',
           convert_to(format(frame, rpad(rtrim(left(repeat('ENEMY ACTIVITY OBSERVED MOVING NORTH NO CONTACT ROUTE CLEAR ', 100),
                      $size - octet_length(convert_to(format(frame, ''), 'UTF8')))), $size - octet_length(convert_to(format(frame, ''), 'UTF8')), 'X')), 'UTF8')
    FROM m;"
}
delivered() { sql "$1" "SELECT count(*) FROM inbox WHERE message_id LIKE '$2-%';"; }
# Waits until NODE's inbox has COUNT messages of RUN or the deadline passes; prints how many arrived.
await_delivered() {
  local node="$1" run="$2" count="$3" seconds="$4" deadline n
  deadline=$((SECONDS + seconds))
  while n="$(delivered "$node" "$run")"; (( n < count && SECONDS < deadline )); do sleep 1; done
  echo "$n"
}
# Seconds between two SQL timestamp expressions (every container reads the same host clock).
seconds_between() { sql "$1" "SELECT round(extract(epoch FROM ($3) - ($2))::numeric, 3);"; }
tx_bytes() { compose exec -T "$1" cat /sys/class/net/eth0/statistics/tx_bytes; }

recovery() {
  local run="rec-$(date +%s)" n
  log "recovery: stopping node-b, 200 x 1,024-byte SITREP into node-a"
  stop_node node-b
  insert node-a SITREP 1024 200 "$run"
  recover_node node-b
  local t0; t0="$(sql node-a "SELECT clock_timestamp();")"
  wait_ready node-b
  local ready; ready="$(sql node-a "SELECT clock_timestamp();")"
  n="$(await_delivered node-b "$run" 200 300)"
  local first last
  first="$(sql node-b "SELECT min(received_at) FROM inbox WHERE message_id LIKE '$run-%';")"
  last="$(sql node-b "SELECT max(received_at) FROM inbox WHERE message_id LIKE '$run-%';")"
  echo "recovery: $n/200 delivered; from reconnect: ready $(seconds_between node-a "'$t0'::timestamptz" "'$ready'::timestamptz") s," \
       "first message $(seconds_between node-a "'$t0'::timestamptz" "'$first'::timestamptz") s," \
       "last message (response time) $(seconds_between node-a "'$t0'::timestamptz" "'$last'::timestamptz") s"
}

# One 1:N cell: TYPE is routed to SUBSCRIBERS (LOGSITREP to node-b, AIRSITREP to node-b and node-c).
fanout_cell() {
  local type="$1"; shift
  local run="fan-$type-$(date +%s)" before after bytes seconds last
  before="$(tx_bytes node-a)"
  local start; start="$(sql node-a "SELECT clock_timestamp();")"
  insert node-a "$type" 200 1000 "$run"
  for node in "$@"; do await_delivered "$node" "$run" 1000 300 > /dev/null; done
  after="$(tx_bytes node-a)"
  last="$(for node in "$@"; do sql "$node" "SELECT max(received_at) FROM inbox WHERE message_id LIKE '$run-%';"; done | sort | tail -1)"
  bytes=$((after - before))
  seconds="$(seconds_between node-a "'$start'::timestamptz" "'$last'::timestamptz")"
  echo "fanout 1:$#: $type, node-a sent $bytes bytes in $seconds s: $(awk -v b="$bytes" -v s="$seconds" 'BEGIN { printf "%.1f", b * 8 / s / 1000 }') kbit/s"
}
fanout() {
  fanout_cell LOGSITREP node-b
  fanout_cell AIRSITREP node-b node-c
}

loss() {
  local rates=(128kbit 256kbit 2mbit) losses=(10% 30%)
  if [ "${1:-}" = --quick ]; then rates=(2mbit); losses=(10%); fi
  for rate in "${rates[@]}"; do
    for loss in "${losses[@]}"; do
      local run="loss-$(date +%s)" n seconds
      netem node-a "$rate" "$loss"; netem node-b "$rate" "$loss"
      local start; start="$(sql node-a "SELECT clock_timestamp();")"
      insert node-a LOGSITREP 200 1000 "$run"
      n="$(await_delivered node-b "$run" 1000 "${CELL_TIMEOUT:-600}")"
      # Delivered over the time it took, or over the deadline if not all arrived (as the harness counts).
      local end
      if (( n == 1000 )); then
        end="$(sql node-b "SELECT max(received_at) FROM inbox WHERE message_id LIKE '$run-%';")"
      else
        end="$(sql node-a "SELECT clock_timestamp();")"
      fi
      seconds="$(seconds_between node-a "'$start'::timestamptz" "'$end'::timestamptz")"
      echo "loss $loss at $rate: $n/1000 delivered, $(awk -v n="$n" -v s="$seconds" 'BEGIN { printf "%.1f", n / s }') msg/s"
      clear_netem node-a; clear_netem node-b
      await_delivered node-b "$run" 1000 600 > /dev/null
    done
  done
}

# A WAN outage under traffic: cut, AIRSITREP from a (to b at its site, to c across the WAN), restore after SECONDS.
# b has them during the cut, c after it; prints c's count and its last arrival after the restore.
wan_outage() {
  local seconds="${1:-60}" run="wan-$(date +%s)" n
  wan_cut
  await_link 0 60 && log "both gateways see the link down"
  insert node-a AIRSITREP 200 200 "$run"
  n="$(await_delivered node-b "$run" 200 120)"
  log "during the cut: node-b has $n/200, node-c has $(delivered node-c "$run")/200"
  sleep "$seconds"
  local restored; restored="$(sql node-a "SELECT clock_timestamp();")"
  wan_clear
  await_link 1 120 && log "both gateways see the link up"
  n="$(await_delivered node-c "$run" 200 "${CELL_TIMEOUT:-600}")"
  local last; last="$(sql node-c "SELECT max(received_at) FROM inbox WHERE message_id LIKE '$run-%';")"
  echo "wan-outage ${seconds}s: node-c has $n/200; last message $(seconds_between node-a "'$restored'::timestamptz" \
       "'$last'::timestamptz") s after the WAN was restored"
}

case "${1:-}" in
  netem) (( $# == 4 )) || die "usage: netem NODE RATE LOSS"; netem "$2" "$3" "$4" ;;
  clear) (( $# == 2 )) || die "usage: clear NODE"; clear_netem "$2" ;;
  stop) (( $# == 2 )) || die "usage: stop NODE"; address "$2" > /dev/null; stop_node "$2" ;;
  recover) (( $# == 2 )) || die "usage: recover NODE"; recover_node "$2" ;;
  recovery) recovery ;;
  fanout) fanout ;;
  loss) shift; loss "$@" ;;
  wan-netem) (( $# == 3 || $# == 4 )) || die "usage: wan-netem RATE LOSS [DELAY]"
             wan_netem rate "$2" loss "$3" ${4:+delay "$4"} limit 1000 ;;
  wan-clear|wan-restore) wan_clear ;;
  wan-cut) wan_cut ;;
  wan-outage) shift; wan_outage "$@" ;;
  *) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
