{{/*
The release's objects are named after the release (its name alone when it already holds the chart's). 52 characters
at most: a StatefulSet's pods carry a controller-revision-hash label of its name and 11 more, within 63.
*/}}
{{- define "wan-gateway.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 52 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 52 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "wan-gateway.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "wan-gateway.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "wan-gateway.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: wan-gateway
app.kubernetes.io/part-of: c4i-gateway
app.kubernetes.io/managed-by: {{ .Release.Service }}
gateway.c4i.kr/site: {{ .Values.site | quote }}
{{- end -}}

{{- define "wan-gateway.credentialsSecret" -}}
{{- .Values.credentials.existingSecret | default (printf "%s-credentials" (include "wan-gateway.fullname" .)) -}}
{{- end -}}

{{/* The gateway's id on the site's LAN, which names its PKI files: gateway.wan.node-id, gw-<site> by default. */}}
{{- define "wan-gateway.nodeId" -}}
{{- .Values.nodeId | default (printf "gw-%s" .Values.site) -}}
{{- end -}}

{{/* Whether a broker TLS key store is read: a JMS LAN or a jms link, unless plain. */}}
{{- define "wan-gateway.brokerTls" -}}
{{- if and (not .Values.security.plain) (or (eq .Values.lan.transport "jms") (eq .Values.link.kind "jms")) -}}true{{- end -}}
{{- end -}}

{{/*
Whether the pair's embedded brokers are primary/backup pairs: two pods with a JMS LAN or the jms link, pod 0 the
Artemis primary of each and pod 1 its backup (gateway.wan.lan.jms.embedded.pair.*, gateway.wan.jms.embedded.pair.*).
*/}}
{{- define "wan-gateway.brokerPair" -}}
{{- if and (gt (int .Values.replicaCount) 1) (or (eq .Values.lan.transport "jms") (eq .Values.link.kind "jms")) -}}true{{- end -}}
{{- end -}}

{{/*
A pod's name under the headless Service, which its partner brokers, the site's nodes and the peer gateways reach it
at: (list . ordinal).
*/}}
{{- define "wan-gateway.podHost" -}}
{{- $root := index . 0 -}}
{{- $name := include "wan-gateway.fullname" $root -}}
{{- printf "%s-%d.%s-pods.%s.svc" $name (int (index . 1)) $name $root.Release.Namespace -}}
{{- end -}}

{{/* A broker pair as its clients list it, both pods, the primary first: (list . port). */}}
{{- define "wan-gateway.pairUrl" -}}
{{- $root := index . 0 -}}
{{- $port := int (index . 1) -}}
{{- $query := index . 2 -}}
{{- printf "(tcp://%s:%d,tcp://%s:%d)%s" (include "wan-gateway.podHost" (list $root 0)) $port (include "wan-gateway.podHost" (list $root 1)) $port $query -}}
{{- end -}}

{{/*
The settings of one pod of a broker pair, <pod>.yaml beside application.yaml, which imports the file of the pod's own
name (its hostname): the pods of a StatefulSet differ only by their ordinal. Each JMS broker the gateway runs, the
LAN's and the jms link's, is a pair of its own on its own port. (list . ordinal)
*/}}
{{- define "wan-gateway.pairYaml" -}}
{{- $root := index . 0 -}}
{{- $ordinal := int (index . 1) -}}
{{- $role := ternary "primary" "backup" (eq $ordinal 0) -}}
{{- $host := include "wan-gateway.podHost" (list $root $ordinal) -}}
{{- $partner := include "wan-gateway.podHost" (list $root (sub 1 $ordinal)) -}}
{{- $wan := dict -}}
{{- if eq $root.Values.lan.transport "jms" -}}
{{- $pair := dict "role" $role "host" $host "partner" (printf "%s:%d" $partner (int $root.Values.lan.brokerPort)) -}}
{{- $_ := set $wan "lan" (dict "jms" (dict "embedded" (dict "pair" $pair))) -}}
{{- end -}}
{{- if eq $root.Values.link.kind "jms" -}}
{{- $pair := dict "role" $role "host" $host "partner" (printf "%s:%d" $partner (int $root.Values.link.brokerPort)) -}}
{{- $_ := set $wan "jms" (dict "embedded" (dict "pair" $pair)) -}}
{{- end -}}
{{- toYaml (dict "gateway" (dict "wan" $wan)) -}}
{{- end -}}

{{/*
application.yaml: what the values above set, then .Values.config over it. No password: those come from the
credentials Secret as environment variables.
*/}}
{{- define "wan-gateway.applicationYaml" -}}
{{- $site := .Values.site -}}
{{- $id := include "wan-gateway.nodeId" . -}}
{{- $dir := printf "/pki/%s" $site -}}
{{- $plain := .Values.security.plain -}}
{{- $tls := dict "plain-tcp" true -}}
{{- if not $plain -}}
{{- $tls = dict "key-store" (printf "%s/%s/%s.p12" $dir $id $id) "key-store-password-file" (printf "%s/%s/%s.password" $dir $id $id) "trust-store" (printf "%s/%s/trust.p12" $dir $id) -}}
{{- end -}}
{{- $wan := dict "site" $site "link" .Values.link.kind -}}
{{- with .Values.nodeId }}{{ $_ := set $wan "node-id" . }}{{ end -}}
{{- if gt (int .Values.replicaCount) 1 }}{{ $_ := set $wan "pair" (dict "enabled" true) }}{{ end -}}
{{- $lan := dict "transport" .Values.lan.transport -}}
{{- if eq .Values.lan.transport "jms" -}}
{{- $_ := set $lan "jms" (dict "user" .Values.lan.brokerUser "tls" (deepCopy $tls) "embedded" (dict "port" (int .Values.lan.brokerPort))) -}}
{{- else -}}
{{- $_ := set $lan "dds" (dict "security" (ternary (dict "plain" true) (dict "directory" $dir) $plain)) -}}
{{- end -}}
{{- $_ := set $wan "lan" $lan -}}
{{- $peers := .Values.link.peers -}}
{{- if eq .Values.link.kind "jms" -}}
{{- $urls := dict -}}
{{- range $peer, $url := $peers }}{{ $_ := set $urls $peer (dict "url" $url) }}{{ end -}}
{{- $_ := set $wan "jms" (dict "user" .Values.link.brokerUser "tls" (deepCopy $tls) "embedded" (dict "port" (int .Values.link.brokerPort)) "peers" $urls) -}}
{{- else if eq .Values.link.kind "dds" -}}
{{- $_ := set $wan "dds" (dict "peers" $peers) -}}
{{- else -}}
{{- $_ := set $wan "norm" (dict "port" (int .Values.link.normPort) "peers" $peers) -}}
{{- end -}}
{{- if $plain -}}
{{- $_ := set $wan "security" (dict "plain" true) -}}
{{- else -}}
{{- $authorities := list (printf "%s/authority/ca.crt" $dir) -}}
{{- $certificates := dict -}}
{{- range $peer, $_ := $peers -}}
{{- $authorities = append $authorities (printf "/pki/peers/%s/ca.crt" $peer) -}}
{{- $_ := set $certificates $peer (printf "/pki/peers/%s/gateway.crt" $peer) -}}
{{- end -}}
{{- $_ := set $wan "security" (dict "certificate" (printf "%s/%s/identity.crt" $dir $id) "private-key" (printf "%s/%s/identity.key" $dir $id) "trusted-authorities" (join "," $authorities) "peers" $certificates) -}}
{{- end -}}
{{- $routing := dict "sites" .Values.routing.sites -}}
{{- with .Values.routing.subscriptions }}{{ $_ := set $routing "subscriptions" . }}{{ end -}}
{{- with .Values.routing.clearances }}{{ $_ := set $routing "clearances" . }}{{ end -}}
{{- with .Values.routing.siteClearances }}{{ $_ := set $routing "site-clearances" . }}{{ end -}}
{{- $health := dict "readiness" (dict "include" (join "," .Values.probes.readinessInclude)) "liveness" (dict "include" "livenessState") -}}
{{- $application := dict "gateway" (dict "wan" $wan "routing" $routing)
      "spring" (dict "datasource" (dict "url" .Values.store.url "username" .Values.store.username))
      "management" (dict "endpoint" (dict "health" (dict "probes" (dict "enabled" true) "group" $health))) -}}
{{- $application = mustMergeOverwrite $application (deepCopy .Values.config) -}}
{{- if include "wan-gateway.brokerPair" . -}}
{{- /* Each pod's pair settings, after any import of config's own: the file named as the pod (its HOSTNAME). */ -}}
{{- $config := get $application.spring "config" | default dict -}}
{{- $imports := get $config "import" | default list -}}
{{- if kindIs "string" $imports }}{{ $imports = splitList "," $imports }}{{ end -}}
{{- $_ := set $config "import" (append $imports "file:/etc/c4i-gateway/${HOSTNAME}.yaml") -}}
{{- $_ := set $application.spring "config" $config -}}
{{- end -}}
{{- toYaml $application -}}
{{- end -}}

{{/* The PKI Secret's keys the gateway reads, and where in the site directory (or /pki/peers) each goes. */}}
{{- define "wan-gateway.pkiItems" -}}
{{- $id := include "wan-gateway.nodeId" . -}}
{{- $site := .Values.site -}}
- key: ca.crt
  path: {{ printf "%s/authority/ca.crt" $site }}
- key: identity.crt
  path: {{ printf "%s/%s/identity.crt" $site $id }}
- key: identity.key
  path: {{ printf "%s/%s/identity.key" $site $id }}
{{- if include "wan-gateway.brokerTls" . }}
- key: {{ printf "%s.p12" $id }}
  path: {{ printf "%s/%s/%s.p12" $site $id $id }}
- key: {{ printf "%s.password" $id }}
  path: {{ printf "%s/%s/%s.password" $site $id $id }}
- key: trust.p12
  path: {{ printf "%s/%s/trust.p12" $site $id }}
{{- end }}
{{- if eq .Values.lan.transport "dds" }}
- key: governance.p7s
  path: {{ printf "%s/dds/governance.p7s" $site }}
- key: permissions.p7s
  path: {{ printf "%s/dds/permissions.p7s" $site }}
{{- end }}
{{- range $peer, $_ := .Values.link.peers }}
- key: {{ printf "%s-ca.crt" $peer }}
  path: {{ printf "peers/%s/ca.crt" $peer }}
- key: {{ printf "%s-gateway.crt" $peer }}
  path: {{ printf "peers/%s/gateway.crt" $peer }}
{{- end }}
{{- end -}}

{{/*
The keys under a map that name a password (…password, any case), as dotted paths separated by spaces: (list prefix map).
*/}}
{{- define "wan-gateway.passwordKeys" -}}
{{- $prefix := index . 0 -}}
{{- range $key, $value := index . 1 -}}
{{- $path := printf "%s.%s" $prefix $key -}}
{{- if regexMatch "(?i)password$" $key }}{{ $path }} {{ end -}}
{{- if kindIs "map" $value }}{{ include "wan-gateway.passwordKeys" (list $path $value) }}{{ end -}}
{{- end -}}
{{- end -}}

{{/* The Services' ports: the LAN side's, and the WAN side's (none for a dds link, whose UDP ports follow its domain). */}}
{{- define "wan-gateway.lanPorts" -}}
{{- if eq .Values.lan.transport "jms" }}
- name: lan-broker
  port: {{ .Values.lan.brokerPort }}
  targetPort: lan-broker
  protocol: TCP
{{- end }}
- name: management
  port: {{ .Values.managementPort }}
  targetPort: management
  protocol: TCP
{{- end -}}
{{- define "wan-gateway.wanPorts" -}}
{{- if eq .Values.link.kind "jms" }}
- name: wan-broker
  port: {{ .Values.link.brokerPort }}
  targetPort: wan-broker
  protocol: TCP
{{- else if eq .Values.link.kind "norm" }}
- name: norm
  port: {{ .Values.link.normPort }}
  targetPort: norm
  protocol: UDP
{{- end }}
{{- end -}}
