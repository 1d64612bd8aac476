#!/usr/bin/env python3
"""Write events/pmujson_tab.h: the perf JSON events pmutop's built-in metrics name that
sysfs does not list, as perf builds their term strings (not run by CI).

    contrib/pmujson-gen.py LINUX/tools/perf/pmu-events/arch/x86 COMMIT > events/pmujson_tab.h

The first argument is perf's x86 directory of a Linux tree (or a directory holding
MODEL/*.json copies: tests/fixtures/metrics/json has abridged ones, named
SHORT-events.json, to copy into MODEL/ first). COMMIT is written into the header as the
source; the per-file provenance lines above it in events/pmujson_tab.h are kept by hand. Which events each model needs is NEEDS below: keep it in
step with src/spec/metriccpu.c.

The term string follows perf's rules for a JSON event (tools/perf/pmu-events/jevents.py):
event=EventCode (0 when absent), then any, cmask, edge, inv, umask from AnyThread,
CounterMask, EdgeDetect, Invert and UMask when not zero, in that order; numbers under 10
in decimal, others in hex; Filter appended as written, MSRIndex/MSRValue as ldlat=,
offcore_rsp= or frontend=; and perf's fixed-counter names replaced by their
general-counter encodings (CPU_CLK_UNHALTED.CORE is event=0x3c). SampleAfterValue
(period=) is left out: pmutop counts, it does not sample."""
import glob
import json
import os
import sys

# perf's mapfile.csv line for each model, and the events the built-in metrics name there,
# by PMU ("cpu" for a CPU with one core PMU).
NEEDS = {
    # TOPDOWN_BAD_SPECULATION.ALL: no built-in metric names it (level 1's bad speculation
    # is what the other three leave, as adl-metrics.json), kept for -e and perf's files
    'alderlake': ('GenuineIntel-6-(97|9A|B7|BA|BF)', {
        'cpu_core': ['INT_MISC.UOP_DROPPING'],
        'cpu_atom': [
            'CPU_CLK_UNHALTED.CORE', 'TOPDOWN_FE_BOUND.ALL', 'TOPDOWN_BE_BOUND.ALL',
            'TOPDOWN_BAD_SPECULATION.ALL', 'TOPDOWN_RETIRING.ALL',
            'TOPDOWN_FE_BOUND.FRONTEND_LATENCY', 'TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH',
            'TOPDOWN_BAD_SPECULATION.MISPREDICT', 'TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS',
            'TOPDOWN_BE_BOUND.MEM_SCHEDULER', 'MEM_SCHEDULER_BLOCK.ST_BUF',
            'MEM_SCHEDULER_BLOCK.ALL', 'LD_HEAD.ANY_AT_RET', 'UOPS_RETIRED.MS'
        ],
    }),
    # Golden Cove servers: tma_frontend_bound and tma_fetch_latency less the dropped uops
    'sapphirerapids': ('GenuineIntel-6-8F', {'cpu': ['INT_MISC.UOP_DROPPING']}),
    'emeraldrapids': ('GenuineIntel-6-CF', {'cpu': ['INT_MISC.UOP_DROPPING']}),
    'graniterapids': ('GenuineIntel-6-A[DE]', {'cpu': ['INT_MISC.UOP_DROPPING']}),
    # Zen 3 before Zen 4, as mapfile.csv lists them: perf takes the first line that
    # matches, and Zen 3 has no PipelineL1 (no events here)
    'amdzen3': ('AuthenticAMD-25-([245][[:xdigit:]]|[[:xdigit:]])', {}),
    'amdzen4': ('AuthenticAMD-25-[[:xdigit:]]+', {
        'cpu': [
            'ls_not_halted_cyc', 'de_no_dispatch_per_slot.no_ops_from_frontend',
            'de_no_dispatch_per_slot.backend_stalls', 'de_no_dispatch_per_slot.smt_contention',
            'de_src_op_disp.all', 'ex_ret_ops', 'ex_ret_brn_misp', 'resyncs_or_nc_redirects',
            'ex_no_retire.load_not_complete', 'ex_no_retire.not_complete', 'ex_ret_ucode_ops'
        ],
    }),
    # Zen 5: 8 slots a cycle; PipelineL2's restarts are bp_redirects.resync
    'amdzen5': ('AuthenticAMD-26-[[:xdigit:]]+', {
        'cpu': [
            'ls_not_halted_cyc', 'de_no_dispatch_per_slot.no_ops_from_frontend',
            'de_no_dispatch_per_slot.backend_stalls', 'de_no_dispatch_per_slot.smt_contention',
            'de_src_op_disp.all', 'ex_ret_ops', 'ex_ret_brn_misp', 'bp_redirects.resync',
            'ex_no_retire.load_not_complete', 'ex_no_retire.not_complete', 'ex_ret_ucode_ops'
        ],
    }),
}

FIXED = {
    'inst_retired.any': 'event=0xc0',
    'inst_retired.any_p': 'event=0xc0',
    'cpu_clk_unhalted.ref': 'event=0x0,umask=0x03',
    'cpu_clk_unhalted.thread': 'event=0x3c',
    'cpu_clk_unhalted.core': 'event=0x3c',
    'cpu_clk_unhalted.thread_any': 'event=0x3c,any=1',
}
FIELDS = [('AnyThread', 'any'), ('CounterMask', 'cmask'), ('EdgeDetect', 'edge'),
          ('Invert', 'inv'), ('UMask', 'umask')]
MSR = {0x3F6: 'ldlat', 0x1A6: 'offcore_rsp', 0x1A7: 'offcore_rsp', 0x3F7: 'frontend'}


def num(text):
    v = int(text.split(',')[0], 0)
    return str(v) if v < 10 else hex(v)


def terms(ev):
    name = ev['EventName'].lower()
    if name in FIXED:
        return FIXED[name]
    t = 'event=' + num(ev.get('EventCode', '0'))
    for key, field in FIELDS:
        if key in ev and int(ev[key], 0) != 0:
            t += f',{field}={num(ev[key])}'
    if ev.get('Filter'):
        t += ',' + ev['Filter']
    if ev.get('MSRIndex'):
        t += f",{MSR[int(ev['MSRIndex'].split(',')[0], 0)]}={ev['MSRValue']}"
    return t


def load(model_dir):
    events = {}
    for path in sorted(glob.glob(os.path.join(model_dir, '*.json'))):
        with open(path) as f:
            data = json.load(f)
        for ev in data if isinstance(data, list) else []:
            if 'EventName' in ev and 'MetricExpr' not in ev:
                pmu = ev.get('Unit', 'cpu')
                events[(pmu, ev['EventName'].upper())] = ev
    return events


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, commit = sys.argv[1], sys.argv[2]
    out = ['/* Generated by contrib/pmujson-gen.py from perf\'s pmu-events JSON files of',
           ' * torvalds/linux tools/perf/pmu-events/arch/x86:', f' * {commit}.',
           ' * Do not edit: run the script again. */']
    for model, (cpuid, needs) in NEEDS.items():
        events = load(os.path.join(root, model))
        rows = []
        for pmu, names in needs.items():
            for name in names:
                ev = events.get((pmu, name.upper()))
                if not ev:
                    sys.exit(f'{model}: no {pmu} event {name}')
                rows.append(f'\t{{"{pmu}", "{name}", "{terms(ev)}"}},')
        if not rows:
            continue
        out.append(f'static const struct pmujson_ev pmujson_{model}[] = {{')
        out += sorted(rows)
        out.append('};')
    out.append('static const struct pmujson_model pmujson_models[] = {')
    for model, (cpuid, needs) in NEEDS.items():
        if not needs:
            out.append(f'\t{{"{model}", "{cpuid}", NULL, 0}},')
            continue
        out.append(f'\t{{"{model}", "{cpuid}", pmujson_{model},')
        out.append(f'\t sizeof(pmujson_{model}) / sizeof(pmujson_{model}[0])}},')
    out.append('};')
    print('\n'.join(out))


if __name__ == '__main__':
    main()
