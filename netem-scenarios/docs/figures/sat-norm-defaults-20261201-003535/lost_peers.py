"""Where the norm link took its peer for lost in a run of every cell: python3 lost_peers.py RUN_FOLDER

RUN_FOLDER is bin/scenarios' output folder (repetitions.csv, nodes/wan-norm-gateway-s*.log), or a copy of it with
the gateways' norm link lines in a .log file of its own (lost-peers.log, watermarks.log). Each "peer ... lost"
line of the gateways' logs is put in the repetition whose time it falls in (its start to its end and 5 s more): in
an outage variant's repetition it is the cut being found; anywhere else, a live peer taken for lost (between
repetitions: the link idle or the next one being set up, said with the repetition before it).
"""
import csv
import glob
import re
import sys
from collections import Counter
from datetime import datetime, timedelta

folder = sys.argv[1]
reps = []
for r in csv.DictReader(open(folder + '/repetitions.csv')):
    start = datetime.fromisoformat(r['started_at'][:26])
    cut = re.match(r'outage (\d+) s', r['cell'])
    # An outage repetition has no duration of its own: its cut, then its drain.
    ms = float(r['duration_ms']) if r['duration_ms'] else int(cut.group(1)) * 1000 + float(r['drain_ms'])
    reps.append((start, start + timedelta(milliseconds=ms + 5000), r['cell'], r['repetition']))
LOST = re.compile(r'^(\S+).*site (s\d): peer (s\d) lost \(([^)]*)\)')
cuts, live, outside = [], Counter(), []
for path in sorted(glob.glob(folder + '/nodes/wan-norm-gateway-s*.log')) or sorted(glob.glob(folder + '/*.log')):
    for line in open(path, errors='replace'):
        m = LOST.search(line)
        if not m:
            continue
        at = datetime.fromisoformat(m.group(1)[:23]).replace(tzinfo=None)
        where = [rep for rep in reps if rep[0] <= at <= rep[1]]
        if not where:
            before = [rep for rep in reps if rep[1] < at]
            after = max(before, key=lambda rep: rep[1]) if before else None
            outside.append((m.group(1), f'site {m.group(2)} lost {m.group(3)} ({m.group(4)})',
                            f'after {after[2]} #{after[3]}' if after else 'before the first repetition'))
        elif 'outage' in where[0][2]:
            cuts.append((where[0][2], m.group(2), m.group(4)))
        else:
            live[where[0][2]] += 1
print('repetitions', len(reps), '| cells with a live peer taken for lost:', dict(live) or 'none',
      '| total', sum(live.values()))
print('cuts found in the outage repetitions:', len(cuts), [c[2] for c in cuts])
print('outside every repetition:', outside or 'none')
