#!/usr/bin/env bash
# The layers, from the #include lines of events/, src/ and ui/ and the links of their
# CMakeLists.txt (docs/ARCHITECTURE.md):
#   .ci/layers.sh [-v]      exit 1 on any finding, 0 when there is none
# violations  a file including a header of a folder its own folder may not use (ALLOW),
#             a folder's library linking one of such a folder (its CMakeLists.txt)
#             a curses header outside ui/, <linux/perf_event.h> in ui/
# circles     modules (x.c with x.h) that reach each other through includes; a folder's
#             one private header (*_priv.h or named in PRIVATE: the state shared by
#             the .c files behind one interface) makes the files of its folder that
#             include it one module; a folder with two is a finding
# -v lists every module edge too. Run by .ci/checks.sh's static stage.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
verbose=0
[ "${1:-}" = -v ] && verbose=1

# Which folders each folder may include from (besides itself). The direction: model <-
# everything; source/base (what the counting sources share) -> model, spec, sys, events;
# each source -> base, model, spec, sys, events, never another source; sinks (record,
# prom, batch) -> model, and spec where they carry the chosen metrics (a recording saves
# and restores them, the exporter has a gauge per metric); ui -> model, spec (and events'
# clock); app -> all. The sources' lines come from the folders under src/source/ (a new
# source needs no edit here): each one -> base, model, spec, sys, events; app -> each.
sources=$(find src/source -mindepth 1 -maxdepth 1 -type d ! -name base | sort)
ALLOW="
events:
src/model:
src/sys: src/model events
src/spec: src/model events
src/source/base: src/model src/spec src/sys events
$(for s in $sources; do echo "$s: src/source/base src/model src/spec src/sys src/fleet events"; done)
src/record: src/model src/spec
src/prom: src/model src/spec events
src/batch: src/model
src/fleet: src/model
src/app: src/model src/spec src/sys src/source/base $(echo $sources) src/record src/prom src/batch src/fleet events ui
ui: src/model src/spec events
"
# Private headers not named *_priv.h: the screen's state behind struct ui.
PRIVATE='ui/uistate.h'

files=$(git ls-files -co --exclude-standard 'events/*.[ch]' 'src/*.[ch]' 'ui/*.[ch]' 2>/dev/null)
[ -n "$files" ] || files=$(find events src ui -name '*.[ch]')
files=$(echo "$files" | sort -u) # a file in conflict is listed once per side

# The link graph: each folder's library (pmutop_layer(NAME) or add_library(NAME) in its
# CMakeLists.txt) may link only the libraries of the folders ALLOW gives it.
cmakes=$(find events src ui -name CMakeLists.txt | sort)
# shellcheck disable=SC2086 # one word per file name (none has a blank)
link_bad=$(awk -v allow="$ALLOW" '
function dir(p) { sub(/\/[^\/]*$/, "", p); return p }
BEGIN {
	n = split(allow, lines, "\n")
	for (i = 1; i <= n; i++) {
		if (lines[i] !~ /:/)
			continue
		split(lines[i], kv, ":")
		known[kv[1]] = 1
		m = split(kv[2], to, " ")
		for (j = 1; j <= m; j++)
			ok[kv[1], to[j]] = 1
	}
}
FNR == 1 { if (text != "") all[prev] = text; text = ""; prev = FILENAME }
{ sub(/#.*/, ""); text = text " " $0 }
END {
	if (text != "") all[prev] = text
	for (f in all) {
		t = all[f]
		while (match(t, /(pmutop_layer|add_library)\([[:space:]]*pmutop_[a-z_]+/)) {
			s = substr(t, RSTART, RLENGTH); sub(/.*\([[:space:]]*/, "", s)
			lib[s] = dir(f)
			t = substr(t, RSTART + RLENGTH)
		}
	}
	bad = 0
	for (f in all) {
		t = all[f]
		while (match(t, /target_link_libraries\([^)]*\)/)) {
			s = substr(t, RSTART + 22, RLENGTH - 23)
			t = substr(t, RSTART + RLENGTH)
			m = split(s, w, /[[:space:]]+/)
			from = ""
			for (j = 1; j <= m; j++) {
				if (w[j] == "")
					continue
				if (from == "") { from = w[j]; continue }
				if (!(from in lib) || !(w[j] in lib) || !(lib[from] in known))
					continue
				a = lib[from]; b = lib[w[j]]
				if (a != b && !ok[a, b]) {
					printf "%s: %s links %s (%s): %s may not use %s\n", f, from, w[j], b, a, b
					bad++
				}
			}
		}
	}
}' $cmakes)
[ -n "$link_bad" ] && echo "$link_bad"
nlink=$(printf '%s' "$link_bad" | grep -c . || true)

# A header that declares the functions of more than one .c file hides a circle between
# them from the module graph (src/app's old app.h, over four files that called each
# other). Exempt: a folder's private header (above), a link-time stub (*_off.c) beside
# the file it stands in for, and the headers SHARED names: one interface over the .c
# files of one folder, none of which calls up into another through it.
SHARED='src/model/columns.h src/record/recsql.h src/record/replaytasks.h
src/source/base/srcbase.h'
# shellcheck disable=SC2086 # one word per file name (none has a blank)
shared_bad=$(awk -v private_list="$PRIVATE" -v shared="$SHARED" '
FNR == 1 { isc = FILENAME ~ /\.c$/ }
function fname(line,    s, n, w) {
	s = line; sub(/\(.*/, "", s); n = split(s, w, /[ *]+/); return w[n]
}
/^[a-z_][a-z0-9_ *]*[ *][a-z_][a-z0-9_]*\(/ && !/^(static|typedef|return|extern|else|if) / {
	f = fname($0)
	if (isc && $0 !~ /;[[:space:]]*$/) {
		if (FILENAME !~ /_off\.c$/)
			def[f] = (f in def) ? def[f] " " FILENAME : FILENAME
	} else if (!isc)
		decl[FILENAME, f] = 1
}
END {
	n = split(private_list " " shared, ex, /[ \n]+/)
	for (i = 1; i <= n; i++)
		skip[ex[i]] = 1
	for (k in decl) {
		split(k, p, SUBSEP)
		h = p[1]
		if (h in skip || h ~ /_priv\.h$/ || !(p[2] in def))
			continue
		m = split(def[p[2]], d, " ")
		for (i = 1; i <= m; i++)
			if (!((h, d[i]) in seen)) {
				seen[h, d[i]] = 1
				cnt[h]++
				list[h] = list[h] " " d[i]
			}
	}
	for (h in cnt)
		if (cnt[h] > 1)
			printf "%s declares the functions of more than one .c:%s\n", h, list[h]
}' $files)
[ -n "$shared_bad" ] && echo "$shared_bad"
nshared=$(printf '%s' "$shared_bad" | grep -c . || true)

# One line per include: FILE<TAB>"name" or FILE<TAB><name>.
# shellcheck disable=SC2086 # one word per file name (none has a blank)
grep -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' $files |
	sed -E 's/^([^:]*):[[:space:]]*#[[:space:]]*include[[:space:]]*([<"][^">]*[">]).*/\1\t\2/' |
	awk -F'\t' -v allow="$ALLOW" -v files="$files" -v private_list="$PRIVATE" -v verbose="$verbose" -v nlink="$nlink" -v nshared="$nshared" '
# The layer of a path: the longest folder of the table it is in.
function layer(p,    best, l) {
	best = ""
	for (l in allowed_layers)
		if (index(p, l "/") == 1 && length(l) > length(best))
			best = l
	return best
}
function dir(p) { sub(/\/[^\/]*$/, "", p); return p }
function base(p) { sub(/.*\//, "", p); return p }
BEGIN {
	n = split(allow, lines, "\n")
	for (i = 1; i <= n; i++) {
		if (lines[i] !~ /:/)
			continue
		split(lines[i], kv, ":")
		allowed_layers[kv[1]] = 1
		m = split(kv[2], to, " ")
		for (j = 1; j <= m; j++)
			ok[kv[1], to[j]] = 1
	}
	np = split(private_list, pl, " ")
	for (i = 1; i <= np; i++)
		named_private[pl[i]] = 1
	nf = split(files, fl, "\n")
	for (i = 1; i <= nf; i++) {
		b = base(fl[i])
		if (b in where) {
			printf "duplicate header name: %s and %s (bare-name includes need one)\n", where[b], fl[i]
			found++
		}
		where[b] = fl[i]
		if (b ~ /_priv\.h$/ || (fl[i] in named_private)) {
			d = dir(fl[i])
			if (d in priv) {
				printf "two private headers in %s: %s and %s\n", d, priv[d], b
				found++
			}
			priv[d] = b
			private[b] = 1
		}
	}
}
{
	f = $1; inc = $2
	fl_layer = layer(f)
	if (fl_layer == "" && !(f in astray)) {
		astray[f] = 1
		printf "%s: in no folder of the direction table (ALLOW): move it into one\n", f
		found++
	}
	if (inc ~ /^</) {
		if (inc ~ /^<(n?curses|ncursesw\/|term\.h|panel\.h|menu\.h|form\.h)/ && fl_layer != "ui") {
			printf "%s: includes %s: curses belongs to ui/\n", f, inc
			violations++
		}
		if (inc == "<linux/perf_event.h>" && fl_layer == "ui") {
			printf "%s: includes %s: ui/ reads the model, not the kernel\n", f, inc
			violations++
		}
		next
	}
	h = inc; gsub(/"/, "", h); h = base(h)
	if (!(h in where))
		next # generated: vmlinux.h, the BPF skeleton
	target = where[h]
	to_layer = layer(target)
	if (fl_layer != "" && fl_layer != to_layer && !ok[fl_layer, to_layer]) {
		printf "%s: includes %s (%s): %s may not use %s\n", f, h, target, fl_layer, to_layer
		violations++
	}
	ne++
	from[ne] = f; to_h[ne] = h
	# A .c file that includes the private header of its folder is one part of that module.
	if (h in private && dir(f) == dir(target) && f ~ /\.c$/)
		group[stem(f)] = stem(h)
}
function stem(p) { p = base(p); sub(/\.[ch]$/, "", p); return p }
# The module of a file: x.c and x.h are one; the parts behind a private header are one.
function mod(p,    s) { s = stem(p); return (s in group) ? group[s] : s }
END {
	for (i = 1; i <= ne; i++) {
		a = mod(from[i]); b = mod(to_h[i])
		if (a == b)
			continue
		if (!((a, b) in edge)) {
			edge[a, b] = 1
			node[a] = 1; node[b] = 1
			if (verbose)
				printf "edge %s -> %s\n", a, b
		}
	}
	# Reachability (Warshall), then the modules that reach each other: one circle each.
	nn = 0
	for (x in node)
		id[++nn] = x
	for (i = 1; i <= nn; i++)
		for (j = 1; j <= nn; j++)
			r[i, j] = ((id[i], id[j]) in edge)
	for (k = 1; k <= nn; k++)
		for (i = 1; i <= nn; i++)
			if (r[i, k])
				for (j = 1; j <= nn; j++)
					if (r[k, j])
						r[i, j] = 1
	circles = 0
	for (i = 1; i <= nn; i++) {
		if (done[i] || !r[i, i])
			continue
		members = id[i]
		done[i] = 1
		for (j = i + 1; j <= nn; j++)
			if (!done[j] && r[i, j] && r[j, i]) {
				members = members " " id[j]
				done[j] = 1
			}
		printf "include circle: %s\n", members
		circles++
	}
	found += nshared
	printf "layers: %d modules, %d include violations, %d link violations, %d include circles, %d other\n",
	       nn, violations, nlink, circles, found
	exit (violations + nlink + circles + found) > 0
}'
