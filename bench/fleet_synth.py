#!/usr/bin/env python3
"""bench/fleet_synth.py HOSTS COMMANDS SAMPLES OUT: OpenMetrics text of HOSTS pmutop
exporters (instance="hostN:9465", job="pmutop"), COMMANDS commands each, the events
task-clock, page-faults, context-switches, SAMPLES samples 1 s apart ending now, for
`promtool tsdb create-blocks-from openmetrics OUT DIR` (docs/FLEET.md's 1,000-host cost)."""
import sys, time
hosts, cmds, samples, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
t1 = int(time.time()) - 60
fams = [("pmutop_command_clock_seconds_total", ["task-clock"], 1.0),
        ("pmutop_command_events_total", ["page-faults", "context-switches"], 1000.0),
        ("pmutop_command_events_enabled_seconds_total",
         ["task-clock", "page-faults", "context-switches"], 1.0),
        ("pmutop_command_events_running_seconds_total",
         ["task-clock", "page-faults", "context-switches"], 1.0)]
with open(out, "w") as f:
    for fam, evs, per in fams:
        base = fam[:-len("_total")]
        f.write(f"# TYPE {base} counter\n")
        for h in range(hosts):
            for c in range(cmds):
                for e in evs:
                    lab = (f'instance="host{h}:9465",job="pmutop",cgroup="/",'
                           f'comm="cmd{c}",event="{e}"')
                    for s in range(samples):
                        f.write(f"{fam}{{{lab}}} {per * (s + 1) * (c + 1)} {t1 - samples + s + 1}\n")
    f.write("# EOF\n")
