{{/*
The release's objects are named after the release (its name alone when it already holds the chart's). 52 characters
at most: a StatefulSet's pods carry a controller-revision-hash label of its name and 11 more, within 63.
*/}}
{{- define "db-bridge.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 52 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 52 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "db-bridge.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "db-bridge.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "db-bridge.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: node
app.kubernetes.io/part-of: c4i-gateway
app.kubernetes.io/managed-by: {{ .Release.Service }}
gateway.c4i.kr/node: {{ .Values.node.id | quote }}
gateway.c4i.kr/site: {{ .Values.site | quote }}
{{- end -}}

{{- define "db-bridge.credentialsSecret" -}}
{{- .Values.credentials.existingSecret | default (printf "%s-credentials" (include "db-bridge.fullname" .)) -}}
{{- end -}}

{{/* Whether the node runs its own Artemis broker (JMS without gateway.jms.url). */}}
{{- define "db-bridge.embeddedBroker" -}}
{{- if and (eq .Values.node.transport "jms") (not .Values.broker.url) -}}true{{- end -}}
{{- end -}}

{{/*
Whether the release is its node's broker pair: two pods, each with its embedded broker, pod 0 the Artemis primary and
pod 1 its backup (gateway.jms.embedded.pair.*).
*/}}
{{- define "db-bridge.brokerPair" -}}
{{- if and (gt (int .Values.replicaCount) 1) (include "db-bridge.embeddedBroker" .) -}}true{{- end -}}
{{- end -}}

{{/*
A pod's name under the headless Service, which its partner, the node's clients and the peers reach it at:
(list . ordinal).
*/}}
{{- define "db-bridge.podHost" -}}
{{- $root := index . 0 -}}
{{- $name := include "db-bridge.fullname" $root -}}
{{- printf "%s-%d.%s-pods.%s.svc" $name (int (index . 1)) $name $root.Release.Namespace -}}
{{- end -}}

{{/* The node's broker as its peers and the site's WAN gateway address it: both pods of a pair, or the Service. */}}
{{- define "db-bridge.brokerUrl" -}}
{{- $port := int .Values.broker.port -}}
{{- if include "db-bridge.brokerPair" . -}}
{{- printf "(tcp://%s:%d,tcp://%s:%d)?ha=true" (include "db-bridge.podHost" (list . 0)) $port (include "db-bridge.podHost" (list . 1)) $port -}}
{{- else -}}
{{- printf "tcp://%s.%s.svc:%d" (include "db-bridge.fullname" .) .Release.Namespace $port -}}
{{- end -}}
{{- end -}}

{{/*
The settings of one pod of a broker pair, <pod>.yaml beside application.yaml, which imports the file of the pod's own
name (its hostname): the pods of a StatefulSet differ only by their ordinal. (list . ordinal)
*/}}
{{- define "db-bridge.pairYaml" -}}
{{- $root := index . 0 -}}
{{- $ordinal := int (index . 1) -}}
{{- $partner := printf "%s:%d" (include "db-bridge.podHost" (list $root (sub 1 $ordinal))) (int $root.Values.broker.port) -}}
{{- $pair := dict "role" (ternary "primary" "backup" (eq $ordinal 0)) "partner" $partner "host" (include "db-bridge.podHost" (list $root $ordinal)) -}}
{{- toYaml (dict "gateway" (dict "jms" (dict "embedded" (dict "pair" $pair)))) -}}
{{- end -}}

{{/* Where the site's PKI is mounted: the directory layout the pki command writes, /pki/<site>. */}}
{{- define "db-bridge.siteDir" -}}
{{- printf "/pki/%s" .Values.site -}}
{{- end -}}

{{/*
application.yaml: what the values above set, then .Values.config over it. No password: those come from the
credentials Secret as environment variables.
*/}}
{{- define "db-bridge.applicationYaml" -}}
{{- $id := .Values.node.id -}}
{{- $site := include "db-bridge.siteDir" . -}}
{{- $gateway := dict "node" (dict "id" $id "transport" .Values.node.transport) -}}
{{- $routing := dict -}}
{{- with .Values.routing.subscriptions }}{{ $_ := set $routing "subscriptions" . }}{{ end -}}
{{- with .Values.routing.clearances }}{{ $_ := set $routing "clearances" . }}{{ end -}}
{{- if $routing }}{{ $_ := set $gateway "routing" $routing }}{{ end -}}
{{- if eq .Values.node.transport "jms" -}}
{{- $tls := dict "plain-tcp" true -}}
{{- if not .Values.security.plain -}}
{{- $tls = dict "key-store" (printf "%s/%s/%s.p12" $site $id $id) "key-store-password-file" (printf "%s/%s/%s.password" $site $id $id) "trust-store" (printf "%s/%s/trust.p12" $site $id) -}}
{{- end -}}
{{- $jms := dict "user" .Values.broker.user "tls" $tls -}}
{{- if .Values.broker.url -}}
{{- $_ := set $jms "url" .Values.broker.url -}}
{{- else -}}
{{- $_ := set $jms "embedded" (dict "port" (int .Values.broker.port)) -}}
{{- end -}}
{{- $_ := set $gateway "jms" $jms -}}
{{- else -}}
{{- $security := dict "plain" true -}}
{{- if not .Values.security.plain -}}
{{- $security = dict "directory" $site -}}
{{- end -}}
{{- $_ := set $gateway "dds" (dict "security" $security) -}}
{{- end -}}
{{- $health := dict "readiness" (dict "include" (join "," .Values.probes.readinessInclude)) "liveness" (dict "include" "livenessState") -}}
{{- $application := dict "gateway" $gateway
      "spring" (dict "datasource" (dict "url" .Values.database.url "username" .Values.database.username))
      "management" (dict "endpoint" (dict "health" (dict "probes" (dict "enabled" true) "group" $health))) -}}
{{- $application = mustMergeOverwrite $application (deepCopy .Values.config) -}}
{{- if include "db-bridge.brokerPair" . -}}
{{- /* Each pod's pair settings, after any import of config's own: the file named as the pod (its HOSTNAME). */ -}}
{{- $config := get $application.spring "config" | default dict -}}
{{- $imports := get $config "import" | default list -}}
{{- if kindIs "string" $imports }}{{ $imports = splitList "," $imports }}{{ end -}}
{{- $_ := set $config "import" (append $imports "file:/etc/c4i-gateway/${HOSTNAME}.yaml") -}}
{{- $_ := set $application.spring "config" $config -}}
{{- end -}}
{{- toYaml $application -}}
{{- end -}}

{{/* The PKI Secret's keys the node reads, and where in the site directory each goes. */}}
{{- define "db-bridge.pkiItems" -}}
{{- $id := .Values.node.id -}}
{{- $site := .Values.site -}}
{{- if eq .Values.node.transport "jms" }}
- key: {{ printf "%s.p12" $id }}
  path: {{ printf "%s/%s/%s.p12" $site $id $id }}
- key: {{ printf "%s.password" $id }}
  path: {{ printf "%s/%s/%s.password" $site $id $id }}
- key: trust.p12
  path: {{ printf "%s/%s/trust.p12" $site $id }}
{{- else }}
- key: ca.crt
  path: {{ printf "%s/authority/ca.crt" $site }}
- key: governance.p7s
  path: {{ printf "%s/dds/governance.p7s" $site }}
- key: permissions.p7s
  path: {{ printf "%s/dds/permissions.p7s" $site }}
- key: identity.crt
  path: {{ printf "%s/%s/identity.crt" $site $id }}
- key: identity.key
  path: {{ printf "%s/%s/identity.key" $site $id }}
{{- end }}
{{- end -}}

{{/*
The keys under a map that name a password (…password, any case), as dotted paths separated by spaces: (list prefix map).
*/}}
{{- define "db-bridge.passwordKeys" -}}
{{- $prefix := index . 0 -}}
{{- range $key, $value := index . 1 -}}
{{- $path := printf "%s.%s" $prefix $key -}}
{{- if regexMatch "(?i)password$" $key }}{{ $path }} {{ end -}}
{{- if kindIs "map" $value }}{{ include "db-bridge.passwordKeys" (list $path $value) }}{{ end -}}
{{- end -}}
{{- end -}}
