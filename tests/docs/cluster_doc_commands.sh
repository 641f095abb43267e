#!/usr/bin/env bash
# cluster_doc_commands.sh DOC BUILD_DIR
#
# Checks the commands of a guide (docs/cluster.md) against the programs they run. Every
# line of its ```sh and ```bash blocks (continuation lines joined, comments dropped) is
# searched for funcmesh programs:
#   euler, heat, advection (also as installed, funcmesh-euler, ...)  BUILD_DIR/examples/NAME
#   funcmesh-partition                                               BUILD_DIR/tools/funcmesh-partition
#   .../bench/NAME                                                   BUILD_DIR/bench/NAME
#   ci/NAME                                                          the source tree's ci/NAME
# A bare name (no slash) counts only where it is unquoted and not an argument of a
# program already named in that command (`heat --scheme euler` names heat alone).
# For each program named, `PROGRAM --help` must succeed (MPI programs run as singletons),
# and every --option the doc passes to it (the words after its name, up to the end of
# that command: ; | && || ( ) end one) must appear in that --help output. Options of
# mpirun, srun, sbatch or spack (before the program's name) are not checked, nor the
# arguments of `ci/cluster mpirun ...` and `ci/cluster exec ...` (they are mpirun's or
# a command's; a funcmesh program among them is checked on its own). Fails when the
# doc names no program at all.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 DOC BUILD_DIR" >&2
  exit 2
fi
doc=$1
build=$2
source_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[[ -f $doc ]] || { echo "cluster_doc_commands: no such file: $doc" >&2; exit 1; }
[[ -d $build ]] || { echo "cluster_doc_commands: no such build folder: $build" >&2; exit 1; }

# The examples are MPI programs: as root, Open MPI wants permission even for a singleton.
if [[ $(id -u) -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
  export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# "LINE<TAB>command" for each command of the sh/bash blocks: comments dropped (a # at the
# start of a line or after a blank), continuation lines joined, LINE the first one's.
awk '
  /^[ \t]*```/ {
    if (!fence) {
      lang = $0
      sub(/^[ \t]*```[ \t]*/, "", lang)
      fence = 1
      wanted = (lang ~ /^(sh|bash)([ \t{].*)?$/)
    } else {
      fence = 0; wanted = 0; text = ""
    }
    next
  }
  fence && wanted {
    line = $0
    sub(/(^|[ \t])#.*$/, "", line)
    if (text == "") start = NR
    text = text " " line
    if (text ~ /\\[ \t]*$/) { sub(/\\[ \t]*$/, "", text); next }
    if (text ~ /[^ \t]/) printf "%d\t%s\n", start, text
    text = ""
  }
' "$doc" >"$work/commands"

errors=0
fail() {
  echo "cluster_doc_commands: $doc:$1: $2" >&2
  errors=$((errors + 1))
}

# Runs `PATH --help` once per program: help_state[KEY] says how it went (a failure is said
# once), and the options it lists go one a line into $work/KEY.options ("/" as "_").
declare -A help_state  # program key -> ok | missing | failed
help_for() {  # key path line
  local key=$1 path=$2 line=$3 file
  [[ -n ${help_state[$key]:-} ]] && return 0
  file=$work/${key//\//_}
  if [[ ! -x $path ]]; then
    help_state[$key]=missing
    fail "$line" "'$key' is named here but $path does not exist (not built, or no such program)"
    return 0
  fi
  local rc=0
  timeout 60 "$path" --help >"$file.help" 2>&1 </dev/null || rc=$?
  if [[ $rc -ne 0 ]]; then
    help_state[$key]=failed
    fail "$line" "'$path --help' failed (exit $rc):"
    sed 's/^/    /' "$file.help" >&2
    return 0
  fi
  help_state[$key]=ok
  { grep -oE -- '--[[:alpha:]][[:alnum:]-]*' "$file.help" || true; echo --help; } |
    sort -u >"$file.options"
}

# The funcmesh program a token names: sets prog_key and prog_path, or returns 1.
program_of() {  # token quoted(0|1)
  local token=$1 quoted=$2 base
  prog_key="" prog_path=""
  [[ $token =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] && return 1  # VAR=value
  base=${token##*/}
  if [[ $token =~ (^|/)ci/([A-Za-z0-9_.-]+)$ ]]; then
    prog_key="ci/$base" prog_path="$source_root/ci/$base"
  elif [[ $token =~ (^|/)bench/([A-Za-z0-9_-]+)$ ]]; then
    prog_key="bench/$base" prog_path="$build/bench/$base"
  else
    case $base in
      euler | heat | advection | funcmesh-euler | funcmesh-heat | funcmesh-advection)
        prog_key=${base#funcmesh-} prog_path="$build/examples/${base#funcmesh-}" ;;
      funcmesh-partition)
        prog_key=$base prog_path="$build/tools/$base" ;;
      *) return 1 ;;
    esac
    # A bare name is a program only unquoted (not a word of an echo's message).
    if [[ $token != */* && $quoted -eq 1 ]]; then
      prog_key="" prog_path=""
      return 1
    fi
  fi
  return 0
}

commands=0 options_checked=0
while IFS=$'\t' read -r line text; do
  # Command separators become a lone ";" token.
  text=${text//&&/ ; }
  text=${text//||/ ; }
  text=${text//|/ ; }
  text=${text//;/ ; }
  text=${text//(/ ; }
  text=${text//)/ ; }
  read -ra tokens <<<"$text"
  active=""  # the program whose options are being collected
  for ((k = 0; k < ${#tokens[@]}; ++k)); do
    raw=${tokens[k]}
    if [[ $raw == ";" ]]; then
      active=""
      continue
    fi
    token=${raw//\"/}
    token=${token//\'/}
    quoted=0
    [[ $token != "$raw" ]] && quoted=1
    is_path=0
    [[ $token == */* ]] && is_path=1
    if { [[ -z $active ]] || [[ $is_path -eq 1 ]]; } && program_of "$token" "$quoted"; then
      commands=$((commands + 1))
      help_for "$prog_key" "$prog_path" "$line"
      active=$prog_key
      # ci/cluster mpirun ... and ci/cluster exec K ...: mpirun's or a command's words.
      if [[ $prog_key == ci/* ]]; then
        next=${tokens[k + 1]:-}
        if [[ $next == mpirun || $next == exec ]]; then
          active=""
        fi
      fi
      continue
    fi
    [[ -z $active ]] && continue
    # Every --option in the token (also inside ${VAR:+--option value}).
    rest=$token
    while [[ $rest =~ (^|[^[:alnum:]_-])(--[[:alpha:]][[:alnum:]-]*)(.*)$ ]]; do
      option=${BASH_REMATCH[2]}
      rest=${BASH_REMATCH[3]}
      [[ ${help_state[$active]} == ok ]] || continue
      options_checked=$((options_checked + 1))
      if ! grep -qxF -- "$option" "$work/${active//\//_}.options"; then
        fail "$line" "'$active' is given $option, which its --help does not list"
      fi
    done
  done
done <"$work/commands"

if [[ $commands -eq 0 ]]; then
  echo "cluster_doc_commands: $doc: no command in its sh/bash blocks names a funcmesh program" >&2
  exit 1
fi
named=${#help_state[@]}
if [[ $errors -gt 0 ]]; then
  echo "cluster_doc_commands: $doc: $errors problem(s) in $commands command(s)" >&2
  exit 1
fi
echo "cluster_doc_commands: $doc: $commands command(s) name $named program(s)" \
  "(${!help_state[*]}); all run --help; $options_checked option(s) checked, all listed"
