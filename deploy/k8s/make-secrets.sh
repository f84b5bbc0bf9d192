#!/usr/bin/env sh
# Issues this deployment's access tokens into OVERLAY/secrets (never committed; see .gitignore):
#   tokens         the services' tokens file: one "sha256:<hash> <role> <name>" line per token
#   referee.token  the referees' own token, sent to the workers
#   viewer.token   the token Prometheus scrapes metrics with
#   admin.token    the token to create and cancel tournaments with (keep it; it is stored nowhere else)
# The overlay's secretGenerator turns them into the Secret taikai-access. docs/access.md explains tokens.
# Tokens already issued are kept: a rerun changes nothing and says so. --rotate issues them all anew
# (the old ones stop working once the overlay is applied again).
# Exit codes: 0 tokens issued or kept, 2 a usage error (no such overlay, tokens missing in part).
set -eu
usage="usage: deploy/k8s/make-secrets.sh [--rotate] OVERLAY_DIR   (e.g. deploy/k8s/overlays/dev)"
rotate=no
case "${1:-}" in
  -h|--help) echo "$usage"; sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
  --rotate) rotate=yes; shift ;;
  -*) echo "make-secrets.sh: unknown option '$1'; $usage" >&2; exit 2 ;;
esac
if [ $# -ne 1 ]; then
  echo "make-secrets.sh: $usage" >&2
  exit 2
fi
overlay="$1"
if [ ! -f "$overlay/kustomization.yaml" ]; then
  # a mistyped overlay would get tokens that no overlay ever reads
  echo "make-secrets.sh: $overlay is not an overlay (it has no kustomization.yaml); nothing written" >&2
  exit 2
fi
dir="$overlay/secrets"
files="tokens admin.token referee.token viewer.token"
if [ "$rotate" = no ] && [ -d "$dir" ]; then
  present=""; missing=""
  for f in $files; do
    if [ -f "$dir/$f" ]; then present="$present $f"; else missing="$missing $f"; fi
  done
  if [ -z "$missing" ]; then
    echo "tokens in $dir kept: they were issued before (to issue new ones, which replaces admin.token:"
    echo "  deploy/k8s/make-secrets.sh --rotate $overlay)"
    exit 0
  fi
  if [ -n "$present" ]; then
    echo "make-secrets.sh: $dir lacks$missing; issue every token anew with --rotate" >&2
    exit 2
  fi
fi
umask 077
mkdir -p "$dir"
token() { head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n'; }
: > "$dir/tokens.new"
echo "# Taikai access tokens (hashes only), made by make-secrets.sh" >> "$dir/tokens.new"
for role in admin referee viewer; do
  t="$(token)"
  printf '%s\n' "$t" > "$dir/$role.token.new"
  printf 'sha256:%s %s %s-%s\n' "$(printf '%s' "$t" | sha256sum | cut -d' ' -f1)" "$role" "k8s" "$role" >> "$dir/tokens.new"
done
for role in admin referee viewer; do
  mv "$dir/$role.token.new" "$dir/$role.token"
done
mv "$dir/tokens.new" "$dir/tokens"
if [ "$rotate" = yes ]; then
  echo "new tokens in $dir (admin.token is yours to keep; apply the overlay for them to take effect)"
else
  echo "tokens in $dir (admin.token is yours to keep)"
fi
