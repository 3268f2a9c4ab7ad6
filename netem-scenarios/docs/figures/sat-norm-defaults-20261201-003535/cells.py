"""Per cell of a run: msg/s mean (sd) of its repetitions, its share of the payload bound, the worst repetition's
FLASH p99. python3 cells.py FOLDER [FOLDER...] (each with repetitions.csv)"""
import csv
import re
import statistics
import sys

for folder in sys.argv[1:]:
    print(folder)
    cells = {}
    for r in csv.DictReader(open(folder + '/repetitions.csv')):
        cells.setdefault(r['cell'], []).append(r)
    for cell, reps in cells.items():
        if 'outage' in cell:
            print(f"  {cell}: drained in {', '.join(str(round(float(r['drain_ms']))) for r in reps)} ms")
            continue
        loss, rate = re.match(r'(\d+)% (\d+) (kbit|Mbit)', cell).group(1, 2), re.match(r'\d+% \d+ (\w+)', cell).group(1)
        bps = int(loss[1]) * (1000 if rate == 'kbit' else 1_000_000)
        bound = bps * (1 - int(loss[0]) / 100) / (8 * 200)
        rates = [float(r['msg_per_s']) for r in reps]
        mean = statistics.mean(rates)
        print(f"  {cell}: {mean:.1f} ({statistics.stdev(rates):.1f}) msg/s, {100 * mean / bound:.1f}% of {bound:g};"
              f" worst FLASH p99 {max(float(r['flash_p99_ms']) for r in reps):.0f} ms")
