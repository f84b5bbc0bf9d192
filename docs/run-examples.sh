#!/usr/bin/env bash
# Runs every command example of the README and the docs exactly as printed (and plays each tournament
# file they show, below): each line of a fenced block that starts with './taikai', 'printf',
# 'deploy/k8s/', 'kubectl' or 'docker' (its trailing '  # comment' cut off), from the repository root (the
# Kubernetes ones from a copy of deploy/k8s), each within 5 minutes; records a run writes under results/
# are removed afterwards. A line that cannot run here is listed below with the reason, one that shows a
# failure on purpose with its exit code, one whose output a doc shows with that doc (the output must
# hold every line shown); a listed line that the docs no longer hold fails the run, so the list follows
# the docs. The cluster's examples (docs/distributed.md, and the curl examples against it) are run by
# ./run-tests, which calls this script after the build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

declare -A skipped=(
  ["./taikai cluster up"]="docs/distributed.md's block: run-tests runs it as a whole just before"
  ["./taikai cluster submit docs/cluster.example.yaml"]="docs/distributed.md's block: run-tests runs it as a whole"
  ["./taikai cluster status"]="docs/distributed.md's block: run-tests runs it as a whole"
  ["./taikai cluster down"]="docs/distributed.md's block: run-tests runs it as a whole"
  ["./taikai make-openings --variant minishogi  --plies 4 --depth 8 --max-cp 60 --count 100 > openings/minishogi.txt"]="rewrites the shipped suite (how it was made)"
  ["./taikai make-openings --variant kyotoshogi --plies 4 --depth 8 --max-cp 60 --count 100 > openings/kyotoshogi.txt"]="rewrites the shipped suite (how it was made)"
  ["docker build -f deploy/docker/engine-worker.Dockerfile -t taikai/engine-worker:0.1.0 ."]="needs a Docker engine, which this machine has not"
  ["kubectl -n taikai create secret tls taikai-ca --cert=ca.crt --key=ca.key"]="needs a Kubernetes cluster and your CA, which this machine has not"
)

examples="$(for doc in README.md docs/*.md openings/README.md deploy/k8s/README.md; do
  awk '/^```/ { block = !block; next } block && /^(\.\/taikai |printf |deploy\/k8s\/|kubectl |docker )/' "$doc"
done | sed 's/  *#.*$//')"

# Examples that show a failure on purpose, with the exit code they must end with.
declare -A fails=(
  ['./taikai engine-check --engine "./taikai fake-engine --swapped-clocks" --variant minishogi']=1
  ['./taikai run -variant minishogi -engine conf=taikai-1 name=a -engine conf=taikai-2 name=b -each nodes=100 -rounds 6 -out results/mine']=0
  ['./taikai run -variant minishogi -engine conf=taikai-1 name=a -engine conf=taikai-3 name=b -each nodes=100 -rounds 6 -out results/mine']=2
)

# Examples whose output a doc shows in the fenced block right after theirs: every line of that block must
# be a line the example printed, so the shown output follows the program.
declare -A shows=(
  ['./taikai run -variant minishogi -engine conf=taikai-1 name=a -engine conf=taikai-3 name=b -each nodes=100 -rounds 6 -out results/mine']=docs/tournaments.md
)

block_after() { # DOC EXAMPLE -> the lines of the fenced block after the block that holds EXAMPLE
  awk -v example="$2" '
    /^```/ {
      if (!inside) { inside = 1; if (stage == 2) stage = 3; next }
      inside = 0; if (stage == 1) stage = 2; else if (stage == 3) exit; next
    }
    inside && stage == 0 { line = $0; sub(/  *#.*$/, "", line); if (line == example) stage = 1; next }
    inside && stage == 3 { print }' "$1"
}

# The Kubernetes examples write an overlay's secrets/: they run in a copy of deploy/k8s (the same paths,
# from a scratch directory), so a reader's own secrets are never touched.
k8s_copy="$(mktemp -d)"
mkdir -p "$k8s_copy/deploy"
cp -r deploy/k8s "$k8s_copy/deploy/"
rm -rf "$k8s_copy"/deploy/k8s/overlays/*/secrets

declare -A seen=()
ran=0
before="$(ls results 2>/dev/null || true)"
remove_made() { # the records folders the examples made, whatever the end
  for made in $(ls results 2>/dev/null || true); do
    printf '%s\n' "$before" | grep -qx "$made" || rm -rf "results/$made"
  done
  rmdir results 2>/dev/null || true
}
trap 'remove_made; rm -rf "$k8s_copy"' EXIT
while IFS= read -r example; do
  [ -n "$example" ] || continue
  [ -z "${seen[$example]:-}" ] || continue # printed in two places: run once
  seen["$example"]=1
  if [ -n "${skipped[$example]:-}" ]; then
    echo "docs example not run here ($example): ${skipped[$example]}" >&2
    continue
  fi
  echo "docs example: $example" >&2
  log="$(mktemp)"
  status=0
  where=.
  case "$example" in deploy/k8s/* | kubectl\ *) where="$k8s_copy" ;; esac
  (cd "$where" && timeout 300 bash -euo pipefail -c "$example") > "$log" 2>&1 < /dev/null || status=$?
  if [ "$status" != "${fails[$example]:-0}" ]; then
    tail -n 30 "$log" >&2
    echo "docs example ended with exit code $status, not ${fails[$example]:-0}: $example" >&2
    exit 1
  fi
  if [ -n "${shows[$example]:-}" ]; then
    shown="$(block_after "${shows[$example]}" "$example")"
    [ -n "$shown" ] || { echo "docs example: ${shows[$example]} shows no output block after: $example" >&2; exit 1; }
    while IFS= read -r shown_line; do
      grep -qxF -- "$shown_line" "$log" || {
        tail -n 30 "$log" >&2
        echo "docs example did not print the line ${shows[$example]} shows ('$shown_line'): $example" >&2
        exit 1
      }
    done <<< "$shown"
  fi
  rm -f "$log"
  ran=$((ran + 1))
done <<< "$examples"

# The tournament files the docs show (```yaml blocks), each played as printed but at a fast
# control (the file's own control stands for the reader's): a key or value the program no longer takes
# fails here.
files="$(mktemp -d)"
trap 'remove_made; rm -rf "$files" "$k8s_copy"' EXIT
awk -v dir="$files" '/^```yaml/ { n++; file = dir "/" n ".yaml"; block = 1; next }
  /^```/ { block = 0; next } block { print > file }' README.md docs/*.md openings/README.md
for file in "$files"/*.yaml; do
  [ -e "$file" ] || continue
  echo "docs tournament file: $(head -n 1 "$file")" >&2
  log="$(mktemp)"
  timeout 300 ./taikai run "$file" -each st=0.05 -out "$files/$(basename "$file" .yaml)" > "$log" 2>&1 \
    || { tail -n 30 "$log" >&2; echo "docs tournament file failed: $(head -n 1 "$file")" >&2; exit 1; }
  rm -f "$log"
  ran=$((ran + 1))
done

for example in "${!skipped[@]}"; do
  [ -n "${seen[$example]:-}" ] || { echo "docs/run-examples.sh lists an example the docs no longer hold: $example" >&2; exit 1; }
done
echo "docs examples: $ran run as printed, ${#skipped[@]} not run here (reasons above)" >&2
