#!/bin/bash
# docker-compose.yml's one-shot `pki` service: runs before every node and gateway on each `docker compose up`.
# 1. Refuses a credential that is missing or left at .env.example's placeholder, in one line naming the variable.
# 2. On the first run, makes each site's certificate authority and issues every holder's identity with the project's
#    own `pki` command (docs/operator-guide.md, "A site's certificates"): site s1 (nodes a and b, gateway gw-s1),
#    site s2 (node c, gateway gw-s2), each gateway trusting the other site's authority (the WAN), and each site's DDS
#    Security documents (governance, a grant per node and the gateway's for the other site's nodes).
# 3. Writes each service's security settings, /pki/config/<service>.yaml, which the service imports
#    (SPRING_CONFIG_IMPORT): mutual TLS on every broker connection, DDS Security on the LANs, sealed WAN frames; or,
#    with GATEWAY_SECURITY=plain in .env, all of them off.
# The volume keeps the certificates; `docker compose down -v` removes them (a new authority on the next up).
set -euo pipefail

for name in POSTGRES_PASSWORD BROKER_PASSWORD WAN_BROKER_PASSWORD MANAGEMENT_PASSWORD; do
  value="${!name:-}"
  if [[ -z "$value" ]]; then
    echo "pki: $name is not set: give it a value of your own in .env (docs/operator-guide.md)" >&2; exit 1
  fi
  if [[ "${value,,}" == change-me* || "${value,,}" == changeme* ]]; then
    echo "pki: $name is still the example's '$value': set a password of your own in .env" >&2; exit 1
  fi
done
security="${GATEWAY_SECURITY:-secured}"
case "$security" in
  secured|plain) ;;
  *) echo "pki: GATEWAY_SECURITY must be secured or plain, was '$security'" >&2; exit 1 ;;
esac

pki() {
  java --enable-native-access=ALL-UNNAMED -cp /application org.springframework.boot.loader.launch.JarLauncher \
    pki --validity-days 825 "$@"
}

# Each identity names the addresses it is reached at: docker-compose.yml's names and fixed addresses, and loopback,
# where a service reaches its own embedded broker. Node b's names its pair's second machine too (node-b2, the pair
# profile), whose broker presents b's identity: a client checks the name of whichever broker of the pair it reaches.
# gw-s1's likewise names its standby's (wan-gateway-s1-standby, on the LAN and the WAN), whose brokers present gw-s1's.
loopback=localhost,127.0.0.1
b_hosts=node-b,172.31.77.12,node-b2,172.31.77.51,$loopback
gw_s1_hosts=wan-gateway-s1,172.31.77.21,172.31.78.11,wan-gateway-s1-standby,172.31.77.52,172.31.78.13,$loopback

if [[ ! -f /pki/issued ]]; then
  rm -rf /pki/s1 /pki/s2
  # The authorities first: each gateway's trust store holds the other site's too.
  pki --dir /pki/s1 --site s1
  pki --dir /pki/s2 --site s2
  pki --dir /pki/s1 --site s1 --holder a=node-a,172.31.77.11,$loopback --holder b=$b_hosts
  pki --dir /pki/s2 --site s2 --holder c=node-c,172.31.77.13,$loopback
  pki --dir /pki/s1 --site s1 --holder gw-s1=$gw_s1_hosts \
    --peer-authority /pki/s2/authority/ca.crt \
    --dds-domain 1 --subscribe 'a=*' --subscribe 'b=*' --gateway gw-s1 --remote c=category:air
  pki --dir /pki/s2 --site s2 --holder gw-s2=wan-gateway-s2,172.31.77.22,172.31.78.12,$loopback \
    --peer-authority /pki/s1/authority/ca.crt \
    --dds-domain 2 --subscribe c=category:air --gateway gw-s2 --remote 'a=*' --remote 'b=*'
  date -u +%FT%TZ > /pki/issued
  cp /pki/issued /pki/issued-pair
  cp /pki/issued /pki/issued-gateway-pair
fi

# A volume issued before b's identity named node-b2: b's identity again, once; every other is kept.
if [[ ! -f /pki/issued-pair ]]; then
  pki --dir /pki/s1 --site s1 --holder b=$b_hosts
  date -u +%FT%TZ > /pki/issued-pair
fi

# A volume issued before gw-s1's identity named its standby: gw-s1's identity again, once, still trusting s2's
# authority (the jms link); s2's gateway, which checks s1's sealed frames against it, reads it when it next starts.
if [[ ! -f /pki/issued-gateway-pair ]]; then
  pki --dir /pki/s1 --site s1 --holder gw-s1=$gw_s1_hosts --peer-authority /pki/s2/authority/ca.crt
  date -u +%FT%TZ > /pki/issued-gateway-pair
fi

# The fanout profile's nodes d-g at site s1 (docker-compose.yml, deploy/scenarios/): their identities, then both
# sites' DDS documents signed again with their subscriptions (s1 grants them, s2's gateway stands in for them).
# Once, on the first run or on a volume issued before them; the site authorities and the other identities are kept.
if [[ ! -f /pki/issued-fanout ]]; then
  pki --dir /pki/s1 --site s1 --holder d=node-d,172.31.77.41,$loopback --holder e=node-e,172.31.77.42,$loopback \
    --holder f=node-f,172.31.77.43,$loopback --holder g=node-g,172.31.77.44,$loopback
  fanout=('d=MARSITREP,NBCSITREP' 'e=MARSITREP,NBCSITREP' 'f=NBCSITREP' 'g=NBCSITREP')
  pki --dir /pki/s1 --site s1 --dds-domain 1 --subscribe 'a=*' --subscribe 'b=*' "${fanout[@]/#/--subscribe=}" \
    --gateway gw-s1 --remote c=category:air
  pki --dir /pki/s2 --site s2 --dds-domain 2 --subscribe c=category:air --gateway gw-s2 --remote 'a=*' --remote 'b=*' \
    "${fanout[@]/#/--remote=}"
  date -u +%FT%TZ > /pki/issued-fanout
fi

mkdir -p /pki/config
# A service's settings file, by its identity, its site and its compose service: a pair's second service (the pair
# profile) has a file of its own, with the first's identity.
node() {
  local id="$1" site="$2" file="/pki/config/$3.yaml"
  if [[ "$security" == plain ]]; then
    printf 'gateway:\n  jms.tls.plain-tcp: true\n  dds.security.plain: true\n' > "$file"
  else
    cat > "$file" <<EOF
gateway:
  jms.tls:
    key-store: /pki/$site/$id/$id.p12
    key-store-password-file: /pki/$site/$id/$id.password
    trust-store: /pki/$site/$id/trust.p12
  dds.security:
    directory: /pki/$site
    identity-certificate: /pki/$site/$id/identity.crt
    private-key: /pki/$site/$id/identity.key
EOF
  fi
}
gateway() {
  local site="$1" peer="$2" id="gw-$1" file="/pki/config/$3.yaml"
  if [[ "$security" == plain ]]; then
    printf 'gateway.wan:\n  security.plain: true\n  jms.tls.plain-tcp: true\n  lan:\n    jms.tls.plain-tcp: true\n    dds.security.plain: true\n' > "$file"
  else
    cat > "$file" <<EOF
gateway.wan:
  security:
    certificate: /pki/$site/$id/identity.crt
    private-key: /pki/$site/$id/identity.key
    trusted-authorities: /pki/$site/authority/ca.crt,/pki/$peer/authority/ca.crt
    peers.$peer: /pki/$peer/gw-$peer/identity.crt
  jms.tls:
    key-store: /pki/$site/$id/$id.p12
    key-store-password-file: /pki/$site/$id/$id.password
    trust-store: /pki/$site/$id/trust.p12
  lan:
    jms.tls:
      key-store: /pki/$site/$id/$id.p12
      key-store-password-file: /pki/$site/$id/$id.password
      trust-store: /pki/$site/$id/trust.p12
    dds.security.directory: /pki/$site
EOF
  fi
}
node a s1 node-a; node b s1 node-b; node c s2 node-c
node d s1 node-d; node e s1 node-e; node f s1 node-f; node g s1 node-g
gateway s1 s2 wan-gateway-s1; gateway s2 s1 wan-gateway-s2
node b s1 node-b2; gateway s1 s2 wan-gateway-s1-standby
echo "pki: $security; certificates issued $(cat /pki/issued), settings in /pki/config"
