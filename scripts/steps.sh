# Step timing for the test scripts (sourced by scripts/test.sh, rtl/test.sh,
# crates/capi/test.sh and python/test.sh).
#   step LABEL      ends the step before (prints its wall and CPU seconds)
#                   and starts LABEL
#   step_end        ends the last step
#   step_run LABEL CMD...  runs CMD as one step (for a step in the background)
#   steps_table     prints every recorded step: wall s, CPU s, load average
# CPU is this shell's and its children's user + system time, read from
# /proc (a child's time counts once it has been waited for, so a step that
# waits on background work is charged with it). On a shared machine the
# wall seconds grow with the load; the CPU seconds much less: the load
# average at the step's end is printed beside them.
# Each step is appended to $ZKMSM_STEPS (label, wall, CPU, load; tab
# separated) when it is set, under the scope $ZKMSM_STEP_SCOPE (empty for
# scripts/test.sh's own steps, e.g. "rtl" inside rtl/test.sh).

_step_label=""
_step_t0=""
_step_c0=0
_step_tck=$(getconf CLK_TCK 2>/dev/null || echo 100)

# this shell's CPU so far, with its waited-for children's, in clock ticks,
# into _step_now (no command substitution: its subshell has its own counts)
_step_now=0
_step_cpu() {
  local s
  read -r s </proc/$BASHPID/stat
  s=${s##*) }
  # shellcheck disable=SC2086
  set -- $s
  _step_now=$((${12} + ${13} + ${14} + ${15}))
}

_step_load() { cut -d' ' -f1 /proc/loadavg; }

_step_record() {
  local label=$1 t0=$2 c0=$3 wall cpu load
  wall=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  _step_cpu
  cpu=$(awk -v a="$c0" -v b="$_step_now" -v t="$_step_tck" 'BEGIN { printf "%.1f", (b - a) / t }')
  load=$(_step_load)
  echo "-- ${ZKMSM_STEP_SCOPE:+$ZKMSM_STEP_SCOPE: }$label: $wall s wall, $cpu s CPU (load $load)"
  if [ -n "${ZKMSM_STEPS:-}" ]; then
    printf '%s\t%s\t%s\t%s\t%s\n' "${ZKMSM_STEP_SCOPE:-}" "$label" "$wall" "$cpu" "$load" >>"$ZKMSM_STEPS"
  fi
}

step_end() {
  if [ -n "$_step_label" ]; then _step_record "$_step_label" "$_step_t0" "$_step_c0"; fi
  _step_label=""
}

step() {
  step_end
  _step_label=$*
  _step_t0=$EPOCHREALTIME
  _step_cpu
  _step_c0=$_step_now
  echo "== ${ZKMSM_STEP_SCOPE:+$ZKMSM_STEP_SCOPE: }$* (${SECONDS} s)"
}

step_run() {
  local label=$1 t0=$EPOCHREALTIME c0 rc=0
  shift
  _step_cpu
  c0=$_step_now
  "$@" || rc=$?
  _step_record "$label" "$t0" "$c0"
  return "$rc"
}

# The table of $ZKMSM_STEPS: each of scripts/test.sh's steps, then the
# steps inside it (recorded before it, as they end first), indented.
steps_table() {
  [ -n "${ZKMSM_STEPS:-}" ] && [ -s "$ZKMSM_STEPS" ] || return 0
  echo "== time per step (wall and CPU seconds; load: 1-min load average at the step's end)"
  awk -F'\t' '
    function row(label, w, c, l) { printf "%-72.72s %8s %8s %6s\n", label, w, c, l }
    BEGIN { row("step", "wall s", "CPU s", "load") }
    $1 != "" { sub_[++n] = sprintf("  %s: %s", $1, $2); sw[n] = $3; sc[n] = $4; sl[n] = $5; next }
    {
      row($2, $3, $4, $5)
      for (i = 1; i <= n; i++) row(sub_[i], sw[i], sc[i], sl[i])
      n = 0
    }
    END { for (i = 1; i <= n; i++) row(sub_[i], sw[i], sc[i], sl[i]) }
  ' "$ZKMSM_STEPS"
}
