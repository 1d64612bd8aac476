#!/usr/bin/env python3
"""bench/fleet_synth.py HOSTS COMMANDS SAMPLES OUT [CGROUPS [STEP [END]]]: OpenMetrics text
of HOSTS pmutop exporters (instance="hostN:9465", job="pmutop"), COMMANDS commands each,
the events task-clock, page-faults, context-switches, SAMPLES samples STEP s apart
(default 1) ending END s from now (default -60: a minute ago), for `promtool tsdb
create-blocks-from openmetrics OUT DIR` (docs/FLEET.md's 1,000-host cost). CGROUPS
(default 0): as many cgroups a host, the pmutop_cgroup_* series of --prometheus --cgroups
(the root, system.slice, user.slice, then services under system.slice), the same events.
An END ahead of now lets pmutop itself query the fleet as it runs (-d at least 2 STEPs)."""
import sys, time
hosts, cmds, samples, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
ncg = int(sys.argv[5]) if len(sys.argv) > 5 else 0
step = int(sys.argv[6]) if len(sys.argv) > 6 else 1
t1 = int(time.time()) + (int(sys.argv[7]) if len(sys.argv) > 7 else -60)
cgroups = ["/", "/system.slice", "/user.slice"][:ncg]
cgroups += [f"/system.slice/svc{k}.service" for k in range(ncg - len(cgroups))]
evs_of = {"clock_seconds_total": (["task-clock"], 1.0),
          "events_total": (["page-faults", "context-switches"], 1000.0),
          "events_enabled_seconds_total": (["task-clock", "page-faults", "context-switches"], 1.0),
          "events_running_seconds_total": (["task-clock", "page-faults", "context-switches"], 1.0)}
# (family, the labels of each row a host has): commands' rows, then cgroups'
kinds = [("command", [f'cgroup="/",comm="cmd{c}"' for c in range(cmds)]),
         ("cgroup", [f'cgroup="{g}"' for g in cgroups])]
with open(out, "w") as f:
    for kind, rows in kinds:
        if not rows:
            continue
        for tail, (evs, per) in evs_of.items():
            fam = f"pmutop_{kind}_{tail}"
            f.write(f"# TYPE {fam[:-len('_total')]} counter\n")
            for h in range(hosts):
                for r, key in enumerate(rows):
                    for e in evs:
                        lab = f'instance="host{h}:9465",job="pmutop",{key},event="{e}"'
                        for s in range(samples):
                            f.write(f"{fam}{{{lab}}} {per * (s + 1) * (r + 1)} "
                                    f"{t1 - (samples - s - 1) * step}\n")
    f.write("# EOF\n")
