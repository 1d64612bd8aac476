#!/bin/sh
# bench/fleet_queries.sh URL [N [TIME]]: the series pmutop exporters put on the Prometheus at URL
# and the time its five --prometheus queries take (median of N rounds, default 20), as
# the server reports it (stats=all: timings.execTotalTime) and end to end (curl).
# TIME: evaluate at that Unix time (a TSDB made by promtool from bench/fleet_synth.py).
# KIND=cgroup: the queries of --prometheus --cgroups (pmutop_cgroup_*, by cgroup).
# docs/FLEET.md has the numbers.
set -eu
URL=${1:?usage: bench/fleet_queries.sh http://HOST:PORT [rounds]}
N=${2:-20}
AT=${3:+--data-urlencode time=$3}
KIND=${KIND:-command}
case $KIND in
command) BY=comm ;;
cgroup) BY=cgroup ;;
*)
	echo "KIND is command or cgroup" >&2
	exit 2
	;;
esac
q() { curl -sfG "$URL/api/v1/query" --data-urlencode "query=$1" $AT; }
echo "targets up:        $(q 'count(up==1)' | sed 's/.*"value":\[[^,]*,"\([^"]*\)".*/\1/')"
echo "pmutop series:     $(q 'count({__name__=~"pmutop_.*"})' | sed 's/.*"value":\[[^,]*,"\([^"]*\)".*/\1/')"
echo "$KIND series:    $(q "count({__name__=~\"pmutop_${KIND}_.*\"})" | sed 's/.*"value":\[[^,]*,"\([^"]*\)".*/\1/')"
W=4s
for Q in \
	"sum by (instance,job,$BY,event,group) (rate({__name__=~\"pmutop_${KIND}_(events|clock_seconds)_total\"}[$W]))" \
	"sum by (instance,job,$BY,event,group) (rate({__name__=\"pmutop_${KIND}_events_running_seconds_total\"}[$W]))" \
	"sum by (instance,job,$BY,event,group) (rate({__name__=\"pmutop_${KIND}_events_enabled_seconds_total\"}[$W]))" \
	"pmutop_event_unavailable_info{}" "up{}"; do
	i=0
	: >/tmp/fleetq.$$
	while [ $i -lt "$N" ]; do
		curl -sfG -o /tmp/fleetq.body.$$ -w '%{time_total} %{size_download}\n' "$URL/api/v1/query" \
			--data-urlencode "query=$Q" $AT >>/tmp/fleetq.$$
		i=$((i + 1))
	done
	sort -n /tmp/fleetq.$$ | awk -v q="$Q" '{t[NR]=$1; b=$2} END {printf "%7.1f ms median, %8d bytes: %s\n", t[int((NR+1)/2)]*1000, b, substr(q,1,70)}'
done
rm -f /tmp/fleetq.$$ /tmp/fleetq.body.$$
