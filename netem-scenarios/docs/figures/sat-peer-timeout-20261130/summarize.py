"""The figures of docs/results.md#sat-peer-timeout-20261130 from a run's folder (repetitions.csv, watermarks.log).

Usage: python3 summarize.py FOLDER...  A folder's watermarks.log holds the gateways' NormWanLink lines
(grep NormWanLink nodes/wan-norm-gateway-s*.log | sort) of a run with that logger at DEBUG.
"""
import csv
import re
import statistics
import sys
from datetime import datetime, timedelta

OLD_TIMEOUT_MS = 10322  # 5 s and ten round trips of 0.53 s, the rule before the change


def at(text):
    return datetime.fromisoformat(text[:23])


for folder in sys.argv[1:]:
    reps = list(csv.DictReader(open(folder + '/repetitions.csv')))
    cell = [r for r in reps if 'outage' not in r['cell']]
    outage = [r for r in reps if 'outage' in r['cell']]
    # The outage variant follows the cell: what is logged after the cell's last repetition belongs to the cuts.
    cell_end = max(at(r['started_at']) + timedelta(milliseconds=float(r['duration_ms'])) for r in cell) \
        + timedelta(seconds=5)
    lost, marks = [], []
    for line in open(folder + '/watermarks.log', errors='replace'):
        m = re.search(r'site (s\d): peer (s\d) lost \(nothing acknowledged for PT([\d.]+)S\)', line)
        if m:
            lost.append((at(line), m.group(1), float(m.group(3))))
        m = re.search(r'site (s\d): the watermark on frame \d+ to site s\d ended (\w+) after (\d+) ms, with \d+ frames '
                      r'\((\d+) bytes\)', line)
        if m and at(line) < cell_end:
            marks.append((m.group(1), m.group(2), int(m.group(3)), int(m.group(4))))
    durations = sorted(w[2] for w in marks)
    print(folder)
    print('  msg/s', [round(float(r['msg_per_s']), 1) for r in cell],
          'mean', round(statistics.mean(float(r['msg_per_s']) for r in cell), 1),
          '| FLASH p99 ms', [round(float(r['flash_p99_ms'])) for r in cell],
          '| delivered', sum(int(r['delivered']) for r in reps), 'of', sum(int(r['expected']) for r in reps))
    print('  live peer taken for lost in the cell:', sum(1 for l in lost if l[0] < cell_end),
          '| cuts found after (s):', sorted(round(l[2], 1) for l in lost if l[0] >= cell_end))
    print('  watermarks in the cell:', len(durations), 'median', statistics.median(durations), 'ms, longest',
          durations[-1], 'ms; acknowledged after more than the old timeout:',
          [(w[0], w[2], w[3]) for w in marks if w[1] == 'SUCCESS' and w[2] > OLD_TIMEOUT_MS])
    print('  outage drain ms', [round(float(r['drain_ms'])) for r in outage])
