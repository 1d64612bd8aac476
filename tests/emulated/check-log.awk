# The emulated-PMU lane's judge: awk -f check-log.awk lane.plan console.log
# It reads the plan (what ran: tag, -e spec, workload N) and the guest's console log
# (lines "TAG|stdout", "TAG!stderr", "LANE-END TAG status=S", the sentinel), checks each
# tag's output and exits 1 if any check failed or the guest never finished. POSIX awk
# (mawk runs it): no gensub, no arrays of arrays, %.0f for big integers.

# workload.S: instructions:u = 10*N + 5*digits(N) + 10, exactly.
function truth_insns(n) { return 10 * n + 5 * length(n "") + 10 }

# With -icount shift=1 QEMU's cycle counter is exactly two ticks per instruction.
function truth_for(name, t) { return tolower(name) ~ /cycle/ ? 2 * t : t }

function rel(v, t) { return t == 0 ? 1 : (v - t) / t }
function absv(x) { return x < 0 ? -x : x }
function pct(v, t) { return sprintf("%+.4f%%", 100 * rel(v, t)) }

function ok(tag, msg) { printf "emulated-pmu: ok     %s: %s\n", tag, msg; passed++ }
function bad(tag, msg) { printf "emulated-pmu: FAILED %s: %s\n", tag, msg; failed++; failed_tag[tag] = 1 }

# Split one RFC 4180 CSV line into f[1..n]; returns n.
function csv_split(line, f,    n, i, c, q, cur) {
	n = 0; cur = ""; q = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (q) {
			if (c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur c; i++ }
			else if (c == "\"") q = 0
			else cur = cur c
		} else if (c == "\"") q = 1
		else if (c == ",") { f[++n] = cur; cur = "" }
		else cur = cur c
	}
	f[++n] = cur
	return n
}

# The event names of an -e spec, in order, into e[1..n]: commas split events except
# inside a pmu/.../ term list; braces only group.
function spec_split(spec, e,    n, i, c, slash, cur) {
	n = 0; cur = ""; slash = 0
	for (i = 1; i <= length(spec); i++) {
		c = substr(spec, i, 1)
		if (c == "/") slash = !slash
		if (!slash && (c == "{" || c == "}")) continue
		if (!slash && c == ",") { if (cur != "") e[++n] = cur; cur = ""; continue }
		cur = cur c
	}
	if (cur != "") e[++n] = cur
	return n
}

# Key=value fields of a probe line into kv[].
function kv_split(line, kv,    n, i, w, p) {
	split("", kv)
	n = split(line, w, " ")
	for (i = 2; i <= n; i++)
		if ((p = index(w[i], "=")) > 0)
			kv[substr(w[i], 1, p - 1)] = substr(w[i], p + 1)
	return w[1]
}

# ---- reading the plan
FNR == NR {
	if ($0 ~ /^#/ || $0 == "") next
	nf = split($0, a, "\t")
	tag = a[1]
	tags[++ntags] = tag
	wl_n[tag] = a[nf]
	# Without "-- COMMAND" pmutop counts system-wide; without --format, it writes text.
	syswide[tag] = 1; fmt[tag] = "text"
	for (i = 2; i <= nf; i++) {
		if (a[i] == "-e") spec[tag] = a[i + 1]
		if (a[i] == "--format") fmt[tag] = a[i + 1]
		if (a[i] == "--backend") backend[tag] = a[i + 1]
		if (a[i] == "--") syswide[tag] = 0
	}
	if (tag == "probe") syswide[tag] = 0
	# The members of the spec's first {group}: what a system-wide check judges.
	if ((i = index(spec[tag], "{")) > 0) {
		g = substr(spec[tag], i)
		g = substr(g, 1, index(g, "}"))
		nmem[tag] = spec_split(g, ge)
		for (i = 1; i <= nmem[tag]; i++) member[tag, ge[i]] = 1
	}
	next
}

# ---- reading the console log
{ sub(/\r$/, "") }
$0 == "PMUTOP-LANE-DONE" { done = 1; next }
/^LANE-END / { split($3, s, "="); end_key[$2] = s[1]; end_val[$2] = s[2]; next }

/^kmsg\|/ {
	if ($0 ~ kmsg_bad) kmsg_hits[++nkmsg_bad] = substr($0, 6)
	next
}

# pmutop's notice on stderr ("TAG!..."): what check_m reads of it.
/^[a-z]+!.*no top-down/ { p = index($0, "!"); td_note[substr($0, 1, p - 1)] = substr($0, p + 1); next }

{
	p = index($0, "|")
	if (p == 0) next
	tag = substr($0, 1, p - 1)
	if (!(tag in wl_n)) next
	line = substr($0, p + 1)
	if (tag == "probe") { probe_line(line); next }
	if (fmt[tag] == "csv") csv_line(tag, line)
	else text_line(tag, line)
}

function probe_line(line,    what, kv, key) {
	what = kv_split(line, kv)
	if (what == "count") {
		key = kv["set"] SUBSEP kv["name"]
		pc_n[kv["set"]]++
		pc_name[kv["set"], pc_n[kv["set"]]] = kv["name"]
		pc_val[kv["set"], pc_n[kv["set"]]] = kv["value"]
		pc_ena[kv["set"], pc_n[kv["set"]]] = kv["enabled"]
		pc_run[kv["set"], pc_n[kv["set"]]] = kv["running"]
		if (!(key in pv)) pv[key] = kv["value"]
	} else if (what == "open") {
		perr[kv["set"], kv["name"]] = kv["errno"]
	}
}

# The CSV columns the checks read, by name: pmutop may add columns after them.
BEGIN {
	ncsv_base = split("tick,time,interval,kind,pid,tid,cpu,command,event,value,state,running", csv_base, ",")
	# Kernel messages that mean the kernel itself went wrong (dump_kernel_warnings in
	# guest/init.c prints the ring buffer's warnings and worse as "kmsg|" lines).
	kmsg_bad = "WARNING:|BUG:|Oops|Call [Tt]race"
}

# Keep the process row of the final "total" block: one entry per event column.
# Notices ("# ...") may come before the header; the header is the first other line.
function csv_line(tag, line,    f, n, k, j, ev, name, c) {
	if (line ~ /^#/) return
	if (!(tag in header)) {
		header[tag] = line
		n = csv_split(line, f)
		for (j = 1; j <= n; j++) hcol[tag, f[j]] = j
		return
	}
	n = csv_split(line, f)
	for (j = 1; j <= ncsv_base; j++) {
		if (!((tag, csv_base[j]) in hcol) || hcol[tag, csv_base[j]] > n) return
		c[csv_base[j]] = f[hcol[tag, csv_base[j]]]
	}
	ev = c["event"]
	# A name that repeats in the spec is written "name#GROUP" (src/spec/evset.c make_keys).
	name = ev
	sub(/#[0-9]+$/, "", name)
	if (c["tick"] != "total" || c["kind"] != "process") return
	if (!(tag in pid0)) pid0[tag] = c["pid"]
	if (c["pid"] != pid0[tag]) { nprocs[tag]++; return }
	k = ++ncol[tag]
	col_ev[tag, k] = ev; col_val[tag, k] = c["value"]
	col_name[tag, k] = name
	col_st[tag, k] = c["state"]; col_run[tag, k] = c["running"]
}

# Text output. With "-- COMMAND": keep the column header and the first row (the process)
# of the final "total" block. System-wide: judge every row of every block as it comes.
# Numbers are right-aligned under their titles, so a cell is found by where its title
# ends, whatever the text columns (USER, COMMAND) hold.
function text_line(tag, line) {
	if (!(tag in tx_first)) tx_first[tag] = line
	if (line ~ /^pmutop - .* - (tick|total) [0-9]+( at [^,]*)?, interval /) {
		tx_at[tag] = 1
		match(line, / - (tick|total) [0-9]+[ ,]/)
		tx_tick[tag] = substr(line, RSTART + 3, RLENGTH - 4)
		# "- N tasks (bpf)": the backend that counted; a header without one is a mismatch
		if (match(line, / tasks \([a-z]+\)/)) tx_backend[tag] = substr(line, RSTART + 8, RLENGTH - 9)
		else tx_backend[tag] = "?"
		if (backend[tag] != "" && tx_backend[tag] != backend[tag]) tx_wrong[tag] = line
		return
	}
	if (tx_at[tag] == 1) {
		tx_head[tag] = line; tx_at[tag] = 2
		text_titles(tag, line)
		return
	}
	if (tx_at[tag] != 2) return
	if (line == "") { tx_at[tag] = 0; return }
	if (syswide[tag]) { text_sw_row(tag, line); return }
	if (tx_tick[tag] ~ /^total/ && !(tag in tx_row)) tx_row[tag] = line
}

# The titles of a text header and the column each ends at: th_name/th_end[tag, 1..n].
function text_titles(tag, head,    p, n) {
	n = 0; p = 1
	while (match(substr(head, p), /[^ ]+/)) {
		n++
		th_name[tag, n] = substr(head, p + RSTART - 1, RLENGTH)
		th_end[tag, n] = p + RSTART + RLENGTH - 2
		p = th_end[tag, n] + 1
	}
	th_n[tag] = n
}

# One row of a system-wide block: its task-clock and its group members' cells.
function text_sw_row(tag, line,    rk, lbl, i, w, v, nm) {
	lbl = line
	sub(/^ +/, "", lbl)
	sub(/ .*/, "", lbl)
	rk = tag SUBSEP tx_tick[tag] SUBSEP lbl
	sw_row[rk] = tag
	sw_cpu[rk] = lbl ~ /^cpu[0-9]+$/
	sw_label[rk] = tx_tick[tag] " " (sw_cpu[rk] ? lbl : "pid " lbl) ": \"" line "\""
	nm = 0
	for (i = 1; i <= th_n[tag]; i++) {
		w = th_name[tag, i]
		if (w == "task-clock") {
			sw_clock_cell[rk] = cell_at(line, th_end[tag, i])
			sw_clock[rk] = text_ns(sw_clock_cell[rk])
		} else if (w == "context-switches" && !((tag, w) in member))
			sw_csw[rk] = text_num(cell_at(line, th_end[tag, i]))
		else if ((tag, w) in member) {
			v = cell_at(line, th_end[tag, i])
			nm++
			if (v == "n/c") sw_nc[rk]++
			else if (v == "0") sw_zero[rk]++
		}
	}
	sw_nmem[rk] = nm
}

# The cell of line that ends at column e (1-based): the non-blank run ending there.
function cell_at(line, e,    b) {
	if (e > length(line) || substr(line, e, 1) == " ") return ""
	if (e < length(line) && substr(line, e + 1, 1) != " ") return ""
	for (b = e; b > 1 && substr(line, b - 1, 1) != " "; b--) ;
	return substr(line, b, e - b + 1)
}

# A text count ("999", "12.3K", "50.0M") as a number; "" when it is not one.
function text_num(s,    u, m) {
	u = substr(s, length(s), 1)
	m = index("KMGTPE", u)
	if (m > 0) s = substr(s, 1, length(s) - 1)
	if (s !~ /^[0-9]+(\.[0-9]+)?$/) return ""
	return s * (m > 0 ? 1000 ^ m : 1)
}

# A text time ("0ns", "25.5us", "201ms", "1.23s") in ns; "" when it is not one.
function text_ns(s,    m) {
	if (!match(s, /[a-z]+$/)) return ""
	m = substr(s, RSTART)
	s = substr(s, 1, RSTART - 1)
	if (s !~ /^[0-9]+(\.[0-9]+)?$/) return ""
	if (m == "ns") return s + 0
	if (m == "us") return s * 1e3
	if (m == "ms") return s * 1e6
	if (m == "s") return s * 1e9
	return ""
}

# Index of the first column of tag's total row named ev, or 0.
function col(tag, ev,    k) {
	for (k = 1; k <= ncol[tag]; k++) if (col_ev[tag, k] == ev) return k
	return 0
}

# Common preconditions of a pmutop check; returns 1 when the check can go on.
function pmutop_ran(tag,    j, f) {
	if (!(tag in end_key)) { bad(tag, "never finished in the guest (no LANE-END line)"); return 0 }
	if (end_key[tag] != "status" || end_val[tag] != 0) {
		bad(tag, "pmutop exited with " end_key[tag] "=" end_val[tag] (syswide[tag] ? "" : " (the workload exits 0)"))
		return 0
	}
	if (fmt[tag] != "csv") {
		if (tag in tx_wrong) { bad(tag, "counted without --backend " backend[tag] ": \"" tx_wrong[tag] "\""); return 0 }
		if (!syswide[tag] && !(tag in tx_row)) { bad(tag, "no column header and row after a \"total\" line; first line: \"" tx_first[tag] "\""); return 0 }
		return 1
	}
	csv_split(header[tag], f)
	for (j = 1; j <= ncsv_base; j++)
		if (f[j] != csv_base[j]) {
			bad(tag, "first output line is not the CSV header: \"" header[tag] "\"")
			return 0
		}
	if (syswide[tag]) return 1
	if (ncol[tag] == 0) { bad(tag, "no kind=process row in the tick=total block"); return 0 }
	if (nprocs[tag] > 0) { bad(tag, "more than one process row in the total block"); return 0 }
	return 1
}

# An exact count: state exact, running 100, value within tol of the truth.
function exact_col(tag, ev, t, tol,    k, v) {
	k = col(tag, ev)
	if (!k) { bad(tag, ev ": no column in the total row"); return "" }
	v = col_val[tag, k]
	if (col_st[tag, k] != "exact" || v == "" || absv(rel(v, t)) > tol) {
		bad(tag, sprintf("%s: value=%s state=%s running=%s, want exact %.0f within %.2f%%",
			ev, v, col_st[tag, k], col_run[tag, k], t, 100 * tol))
		return ""
	}
	return v
}

function check_probe(tag,    t, names, i, v, set, k, ena, run, sc, worst, ninv) {
	t = truth_insns(wl_n[tag])
	if (!(tag in end_key)) { bad(tag, "never finished in the guest"); return }
	split("instructions:u armv8_pmuv3/inst_retired/u arm_ac57::INST_RETIRED:u=1 cycles:u", names, " ")
	for (i = 1; i <= 4; i++) {
		v = pv["exact", names[i]]
		if (v == "" || v + 0 != truth_for(names[i], t)) {
			bad(tag, sprintf("perf_event_open %s=%s, want exactly %.0f: the workload or the emulator changed",
				names[i], v, truth_for(names[i], t)))
			return
		}
	}
	for (i = 1; i <= 2; i++) {
		set = i == 1 ? "cache-misses" : "branch-misses"
		if (perr["exact", set] != "ENOENT") {
			bad(tag, set ": open gave " (perr["exact", set] == "" ? "a counter" : perr["exact", set]) ", want ENOENT")
			return
		}
	}
	worst = 0
	for (k = 1; k <= pc_n["mux"]; k++) {
		ena = pc_ena["mux", k] + 0; run = pc_run["mux", k] + 0
		if (run <= 0 || run >= ena) { bad(tag, "mux: a group ran " run " of " ena " ns: no multiplexing"); return }
		sc = pc_val["mux", k] * ena / run
		if (absv(rel(sc, truth_for(pc_name["mux", k], t))) > absv(worst)) worst = rel(sc, truth_for(pc_name["mux", k], t))
	}
	if (pc_n["mux"] != 12 || absv(worst) > 0.02) {
		bad(tag, sprintf("mux: %d counts, worst scaled error %+.3f%%", pc_n["mux"], 100 * worst))
		return
	}
	ninv = 0
	for (k in perr) if (index(k, "big" SUBSEP) == 1 && perr[k] == "EINVAL") ninv++
	if (ninv == 0) { bad(tag, "big: a group of 9 opened whole: the PMU holds more than 7 counters?"); return }
	ok(tag, sprintf("workload %s: instructions:u=%.0f (sysfs and libpfm4 names agree), cycles:u=%.0f, 4x3 groups scaled within %+.3f%%, cache/branch-misses ENOENT, 9-group rejected",
		wl_n[tag], t, 2 * t, 100 * worst))
}

function check_a(tag,    t, i, c, k) {
	if (!pmutop_ran(tag)) return
	t = truth_insns(wl_n[tag])
	i = exact_col(tag, "instructions:u", t, 0.001)
	c = exact_col(tag, "cycles:u", 2 * t, 0.001)
	if (i == "" || c == "") return
	# bpf counts the command's tgid from before its exec: a count below the truth lost
	# some of the workload's slices.
	if (backend[tag] == "bpf" && i + 0 < t) {
		bad(tag, sprintf("instructions:u=%s under bpf, want at least %.0f (counted from before the exec)", i, t))
		return
	}
	k = col(tag, "IPC")
	if (!k) { bad(tag, "no IPC column in the total row"); return }
	if (col_val[tag, k] == "" || absv(col_val[tag, k] - 0.5) > 0.005) {
		bad(tag, "IPC=" col_val[tag, k] " state=" col_st[tag, k] ", want 0.50 (icount: 2 cycles per instruction)")
		return
	}
	ok(tag, sprintf("instructions:u=%s (%s of %.0f, %+d), cycles:u=%s, IPC=%s", i, pct(i, t), t, i - t, c, col_val[tag, k]))
}

function check_b(tag,    t, e, n, j, k, want, v, r, lo, hi, worst) {
	if (!pmutop_ran(tag)) return
	t = truth_insns(wl_n[tag])
	n = spec_split(spec[tag], e)
	for (j = 1; j <= n; j++) want[e[j]] = 1
	lo = 100; hi = 0; worst = 0; j = 0
	for (k = 1; k <= ncol[tag]; k++) {
		if (!(col_name[tag, k] in want)) continue	# a derived metric such as IPC
		j++
		v = col_val[tag, k]; r = col_run[tag, k]
		if (col_st[tag, k] != "scaled" || r == "" || r + 0 <= 0 || r + 0 >= 100 || v == "" ||
		    absv(rel(v, truth_for(col_name[tag, k], t))) > 0.02) {
			bad(tag, sprintf("%s #%d: value=%s state=%s running=%s, want scaled, 0<running<100, within 2%% of %.0f",
				col_ev[tag, k], j, v, col_st[tag, k], r, truth_for(col_name[tag, k], t)))
			return
		}
		if (r + 0 < lo) lo = r + 0
		if (r + 0 > hi) hi = r + 0
		if (absv(rel(v, truth_for(col_name[tag, k], t))) > absv(worst)) worst = rel(v, truth_for(col_name[tag, k], t))
	}
	if (j != n) { bad(tag, sprintf("%d event columns in the total row, the spec has %d", j, n)); return }
	ok(tag, sprintf("%d events scaled, running %.2f..%.2f%%, worst error %+.3f%%", n, lo, hi, 100 * worst))
}

function check_c(tag,    t, i, k, j, ev, msg) {
	if (!pmutop_ran(tag)) return
	t = truth_insns(wl_n[tag])
	i = exact_col(tag, "instructions:u", t, 0.001)
	if (i == "") return
	msg = ""
	for (j = 1; j <= 2; j++) {
		ev = j == 1 ? "cache-misses" : "branch-misses"
		k = col(tag, ev)
		if (!k) { bad(tag, ev ": no column in the total row"); return }
		if (col_st[tag, k] != "n/a" || col_val[tag, k] != "") {
			bad(tag, ev ": value=" col_val[tag, k] " state=" col_st[tag, k] ", want state n/a and no value")
			return
		}
		msg = msg ", " ev " n/a"
	}
	ok(tag, "instructions:u=" i " (" pct(i, t) ")" msg)
}

function check_d(tag,    t, e, n, j, v, ref, msg) {
	if (!pmutop_ran(tag)) return
	t = truth_insns(wl_n[tag])
	n = spec_split(spec[tag], e)
	msg = ""
	for (j = 1; j <= n; j++) {
		v = exact_col(tag, e[j], truth_for(e[j], t), 0.001)
		if (v == "") return
		# Opened at the same exec, every spelling of one event counts the same.
		ref = truth_for(e[j], 1) == 2 ? "cycles:u" : "instructions:u"
		if (v + 0 != col_val[tag, col(tag, ref)] + 0) {
			bad(tag, e[j] "=" v " but " ref "=" col_val[tag, col(tag, ref)])
			return
		}
		msg = msg (j > 1 ? ", " : "") e[j] "=" v
	}
	ok(tag, msg)
}

function check_e(tag,    e, n, j, k, want, states, good) {
	if (!pmutop_ran(tag)) return
	n = spec_split(spec[tag], e)
	for (j = 1; j <= n; j++) want[e[j]] = 1
	j = 0; good = 0; states = ""
	for (k = 1; k <= ncol[tag]; k++) {
		if (!(col_name[tag, k] in want)) continue
		j++
		if (col_st[tag, k] == "n/c" && col_val[tag, k] == "") good++
		states = states (j > 1 ? " " : "") col_st[tag, k] (col_val[tag, k] == "" ? "" : "=" col_val[tag, k])
	}
	if (j != n) { bad(tag, sprintf("%d event columns in the total row, the group has %d", j, n)); return }
	if (good != n) {
		bad(tag, sprintf("%d of %d members n/c with no value; members: %s", good, n, states))
		return
	}
	ok(tag, n " members of a " n "-event group n/c")
}

# A group larger than the PMU, counted system-wide: the kernel accepts it (its members
# are opened disabled, without enable_on_exec) and never schedules it, so time_running
# stays 0 while time_enabled grows. Every member must read n/c, never a number, on every
# CPU row and on every task row that ran (task-clock > 0) in that tick.
function check_group_nc(tag, want_cpu,    rk, ncpu, nran, nidle, nzero, lbl) {
	if (!pmutop_ran(tag)) return
	if (nmem[tag] < 8) { bad(tag, "the plan's group has " nmem[tag] " members: not larger than the PMU"); return }
	ncpu = nran = nidle = nzero = 0
	for (rk in sw_row) {
		if (sw_row[rk] != tag) continue
		lbl = sw_label[rk]
		if (sw_cpu[rk]) {
			ncpu++
			if (!want_cpu) { bad(tag, lbl ": a CPU row without --per-cpu"); return }
		} else if (sw_clock[rk] == "" || sw_clock[rk] + 0 <= 0) {
			# An idle task: its group was never enabled this tick (see the docs).
			nidle++
			nzero += sw_zero[rk]
			continue
		} else nran++
		if (sw_nmem[rk] != nmem[tag]) {
			bad(tag, sprintf("%s: %d member columns, the group has %d", lbl, sw_nmem[rk], nmem[tag]))
			return
		}
		if (sw_nc[rk] != nmem[tag]) {
			bad(tag, sprintf("%s: %d of %d members n/c", lbl, sw_nc[rk], nmem[tag]))
			return
		}
	}
	if (want_cpu && ncpu == 0) { bad(tag, "no CPU rows with --per-cpu"); return }
	if (nran == 0) { bad(tag, "no task row with task-clock > 0: nothing ran while pmutop counted?"); return }
	ok(tag, sprintf("%d-member group n/c on %d CPU rows and %d task rows that ran (%d idle task rows, %d of their member cells exact 0)",
		nmem[tag], ncpu, nran, nidle, nzero))
}

# A group larger than the PMU led by task-clock, context-switches outside it: the group
# never runs, so its task-clock never moves, even for tasks that run. After the first
# tick, some task rows must still show context switches (pmutop's own, at least), each
# with task-clock and every member n/c: a probe that took an unmoved task-clock for an
# idle task would zero them all.
function check_mixed_probe(tag,    rk, nlate, nsw, lbl) {
	if (!pmutop_ran(tag)) return
	nlate = nsw = 0
	for (rk in sw_row) {
		if (sw_row[rk] != tag || sw_cpu[rk]) continue
		split(rk, part, SUBSEP)
		if (part[2] == "tick 1") continue
		nlate++
		if (sw_csw[rk] == "" || sw_csw[rk] + 0 <= 0) continue
		nsw++
		lbl = sw_label[rk]
		if (sw_clock_cell[rk] != "n/c") { bad(tag, lbl ": task-clock \"" sw_clock_cell[rk] "\", want n/c"); return }
		if (sw_nc[rk] != nmem[tag] - 1) {
			bad(tag, sprintf("%s: %d of %d hardware members n/c", lbl, sw_nc[rk], nmem[tag] - 1))
			return
		}
	}
	if (nsw == 0) { bad(tag, "no task row with context switches after tick 1 (of " nlate "): counts zeroed?"); return }
	ok(tag, sprintf("%d task rows after tick 1 switched, each with the group n/c (%d rows)", nsw, nlate))
}

# Multiplexing in the text format: every event cell of the total row carries the "~"
# mark and a count within 3 % of the truth (2 % scaling, 0.5 % display rounding), and
# each group's RUN% (RUN%1..RUN%N) is a number strictly between 0 and 100.
function check_text_mux(tag,    t, e, n, j, want, head, row, i, w, e_end, v, cnt, nrun, lo, hi, x, nev, ng) {
	if (!pmutop_ran(tag)) return
	t = truth_insns(wl_n[tag])
	n = spec_split(spec[tag], e)
	for (j = 1; j <= n; j++) want[e[j]] = 1
	head = tx_head[tag]; row = tx_row[tag]
	nev = 0; nrun = 0; lo = 100; hi = 0
	for (i = 1; i <= th_n[tag]; i++) {
		w = th_name[tag, i]
		e_end = th_end[tag, i]
		if (w in want) {
			nev++
			v = cell_at(row, e_end)
			cnt = substr(v, 1, length(v) - 1)
			x = text_num(cnt)
			if (substr(v, length(v)) != "~" || x == "" || absv(rel(x, truth_for(w, t))) > 0.03) {
				bad(tag, sprintf("%s #%d: cell \"%s\", want a count within 3%% of %.0f marked ~; header \"%s\", row \"%s\"",
					w, nev, v, truth_for(w, t), head, row))
				return
			}
		} else if (w ~ /^RUN%[0-9]*$/) {
			nrun++
			v = cell_at(row, e_end)
			if (v !~ /^[0-9]+(\.[0-9]+)?$/ || v + 0 <= 0 || v + 0 >= 100) {
				bad(tag, sprintf("%s: cell \"%s\", want 0 < RUN%% < 100; header \"%s\", row \"%s\"", w, v, head, row))
				return
			}
			if (v + 0 < lo) lo = v + 0
			if (v + 0 > hi) hi = v + 0
		}
	}
	if (nev != n) { bad(tag, sprintf("%d event columns in the text header, the spec has %d: \"%s\"", nev, n, head)); return }
	ng = gsub(/\{/, "{", spec[tag])
	if (nrun != ng) {
		bad(tag, sprintf("%d RUN%% columns, the spec has %d groups: \"%s\"", nrun, ng, head))
		return
	}
	ok(tag, sprintf("%d counts marked ~ within 3%%, %d groups' RUN%% %.1f..%.1f", n, nrun, lo, hi))
}

# Metrics through the engine: ipc from the user's {cycles:u,instructions:u} equals the
# IPC column and 0.5 exactly (icount); the Cortex-A57 has no top-down, and says so in
# one line; a stall metric whose events it lacks is n/a.
function check_m(tag,    k, i, v) {
	if (!pmutop_ran(tag)) return
	k = col(tag, "ipc"); i = col(tag, "IPC")
	if (!k || !i) { bad(tag, "no ipc (metric) or IPC column in the total row"); return }
	v = col_val[tag, k]
	if (col_st[tag, k] != "exact" || v == "" || absv(v - 0.5) > 1e-4 || v != col_val[tag, i]) {
		bad(tag, "ipc=" v " state=" col_st[tag, k] ", IPC=" col_val[tag, i] ": want both exact 0.5")
		return
	}
	k = col(tag, "frontend_stalled_cycles")
	if (!k || col_st[tag, k] != "n/a" || col_val[tag, k] != "") {
		bad(tag, "frontend_stalled_cycles: " (k ? "state=" col_st[tag, k] " value=" col_val[tag, k] : "no column") ", want n/a (no STALL_FRONTEND)")
		return
	}
	if (!(tag in td_note) || td_note[tag] !~ /no top-down: this CPU has no top-down events/) {
		bad(tag, "no \"no top-down\" reason on stderr")
		return
	}
	ok(tag, "ipc=" v " exact through the metric engine, frontend_stalled_cycles n/a; " td_note[tag])
}

# Kernel warnings, bugs and oopses (kmsg| lines) fail the lane whatever pmutop printed.
function check_kmsg(    i) {
	if (!done) return
	if (nkmsg_bad == 0) { ok("kmsg", "no kernel WARNING, BUG, Oops or call trace"); return }
	for (i = 1; i <= nkmsg_bad && i <= 5; i++) bad("kmsg", kmsg_hits[i])
	if (nkmsg_bad > 5) bad("kmsg", (nkmsg_bad - 5) " more such kernel lines")
}

END {
	for (i = 1; i <= ntags; i++) {
		tag = tags[i]
		if (tag == "probe") check_probe(tag)
		else if (tag == "a") check_a(tag)
		else if (tag == "b") check_b(tag)
		else if (tag == "c") check_c(tag)
		else if (tag == "d") check_d(tag)
		else if (tag == "e") check_e(tag)
		else if (tag == "f") check_group_nc(tag, 1)
		else if (tag == "g") check_group_nc(tag, 0)
		else if (tag == "h") check_text_mux(tag)
		else if (tag == "i") check_mixed_probe(tag)
		# a, b and f again under the bpf backend
		else if (tag == "j") check_a(tag)
		else if (tag == "k") check_b(tag)
		else if (tag == "l") check_group_nc(tag, 1)
		else if (tag == "m") check_m(tag)
		else bad(tag, "no check for this tag in check-log.awk")
	}
	check_kmsg()
	if (!done) bad("guest", "no PMUTOP-LANE-DONE line: the guest crashed, hung or never booted")
	printf "emulated-pmu: checks: %d ok, %d FAILED\n", passed, failed
	exit (failed > 0)
}
