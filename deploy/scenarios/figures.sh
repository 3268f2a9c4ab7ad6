# shellcheck shell=bash
# The figures scenario.sh puts beside its own, copied, never invented:
# - study: Lee and Ko 2020, Tables 2-5, mean and sd of 15 runs (netem-scenarios report/StudyFigures.java);
# - harness: netem-scenarios on emulated hosts (docs/results.md): recovery and 1:N from run 1
#   (full-recovery-fanout-20261121-165420), loss from run 3 (loss-pooled-15), WAN and outage from run 5
#   (loss-wan-20261123-015314).
# Each function prints "mean (sd)" or "n/a"; its _json twin {"mean": m, "sd": s} or null.

# figure_of TABLE KEY: looks KEY up in TABLE's "key mean sd" lines.
figure_of() { awk -v k="$2" '$1 == k { print $2, $3; found = 1; exit } END { if (!found) print "" }' <<<"$1"; }
text_of() { local m s; read -r m s <<<"$(figure_of "$1" "$2")"; if [ -n "$m" ]; then echo "$m ($s)"; else echo n/a; fi; }
json_of() { local m s; read -r m s <<<"$(figure_of "$1" "$2")"; if [ -n "$m" ]; then echo "{\"mean\": $m, \"sd\": $s}"; else echo null; fi; }
# 128kbit -> 128000 (the tables' keys are bit/s).
rate_key() { local v="${1,,}"; case "$v" in *mbit) echo $(( ${v%mbit} * 1000000 )) ;; *kbit) echo $(( ${v%kbit} * 1000 )) ;; *) echo "$v" ;; esac; }

study_recovery_table='jms 52319 6104
dds 2665 1481'
harness_recovery_table='jms 1471 266
dds 980 74.5'
# bps by transport-N.
study_fanout_table='jms-1 1349168 5415
jms-3 4204790 8400
jms-5 6918271 111514
dds-1 2186864 19617
dds-3 4109042 54854
dds-5 4477420 199468'
harness_fanout_bps_table='jms-1 36862809 11252733
jms-3 47121165 11382792
jms-5 51295793 12283592
dds-1 34165798 10332293
dds-3 16289973 3724454
dds-5 12692102 2280134'
harness_fanout_bytes_table='jms-1 996975 5017
jms-3 2993806 11776
jms-5 5000730 13172
dds-1 370644 886
dds-3 376401 19153
dds-5 382859 24346'
# msg/s by transport-loss-rate.
study_loss_table='jms-10-128000 69 24
jms-10-256000 147 28
jms-10-2000000 961 203
jms-30-128000 26 34
jms-30-256000 27 49
jms-30-2000000 25 57
dds-10-128000 34 45
dds-10-256000 59 76
dds-10-2000000 594 212
dds-30-128000 19 28
dds-30-256000 49 70
dds-30-2000000 334 114'
harness_loss_table='jms-10-128000 10.8 1.8
jms-10-256000 26.5 4.0
jms-10-2000000 218 8.8
jms-30-128000 5.4 1.4
jms-30-256000 14.8 3.3
jms-30-2000000 113 26.4
dds-10-128000 16.4 5.4
dds-10-256000 55.9 3.4
dds-10-2000000 500 42.3
dds-30-128000 15.2 1.0
dds-30-256000 40.0 2.7
dds-30-2000000 135 31.0'
# msg/s across the WAN by link-loss-rate (1,000 ROUTINE x 200 B).
harness_wan_table='jms-10-128000 426 98.5
jms-10-256000 646 208
jms-10-2000000 613 158
jms-30-128000 315 164
jms-30-256000 613 83.9
jms-30-2000000 879 311
dds-10-128000 604 43.4
dds-10-256000 1312 104
dds-10-2000000 1815 681
dds-30-128000 351 39.5
dds-30-256000 878 133
dds-30-2000000 1752 855'
# Drain ms after a 60 s cut at 256 kbit/s, 1,000 messages, by link.
harness_outage_table='jms 7419 3047
dds 3050 1197'

study_recovery() { text_of "$study_recovery_table" "$1"; }
study_recovery_json() { json_of "$study_recovery_table" "$1"; }
harness_recovery() { text_of "$harness_recovery_table" "$1"; }
harness_recovery_json() { json_of "$harness_recovery_table" "$1"; }
study_fanout() { text_of "$study_fanout_table" "$1-$2"; }
study_fanout_json() { json_of "$study_fanout_table" "$1-$2"; }
harness_fanout_bps() { text_of "$harness_fanout_bps_table" "$1-$2"; }
harness_fanout_bytes() { text_of "$harness_fanout_bytes_table" "$1-$2"; }
harness_fanout_json() {
  echo "{\"bytes\": $(json_of "$harness_fanout_bytes_table" "$1-$2"), \"bps\": $(json_of "$harness_fanout_bps_table" "$1-$2")}"
}
study_loss() { text_of "$study_loss_table" "$1-$2-$(rate_key "$3")"; }
study_loss_json() { json_of "$study_loss_table" "$1-$2-$(rate_key "$3")"; }
harness_loss() { text_of "$harness_loss_table" "$1-$2-$(rate_key "$3")"; }
harness_loss_json() { json_of "$harness_loss_table" "$1-$2-$(rate_key "$3")"; }
harness_wan() { text_of "$harness_wan_table" "$1-$2-$(rate_key "$3")"; }
harness_wan_json() { json_of "$harness_wan_table" "$1-$2-$(rate_key "$3")"; }
harness_outage() { text_of "$harness_outage_table" "$1"; }
harness_outage_json() { json_of "$harness_outage_table" "$1"; }
