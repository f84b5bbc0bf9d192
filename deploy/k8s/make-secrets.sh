#!/usr/bin/env sh
# Issues this deployment's access tokens into OVERLAY/secrets (never committed; see .gitignore):
#   tokens         the services' tokens file: one "sha256:<hash> <role> <name>" line per token
#   referee.token  the referees' own token, sent to the workers
#   viewer.token   the token Prometheus scrapes metrics with
#   admin.token    the token to create and cancel tournaments with (keep it; it is stored nowhere else)
# The overlay's secretGenerator turns them into the Secret taikai-access. docs/access.md explains tokens.
# Usage: deploy/k8s/make-secrets.sh deploy/k8s/overlays/dev
set -eu
overlay="${1:?usage: make-secrets.sh OVERLAY_DIR}"
dir="$overlay/secrets"
mkdir -p "$dir"
umask 077
token() { head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n'; }
: > "$dir/tokens.new"
echo "# Taikai access tokens (hashes only), made by make-secrets.sh" >> "$dir/tokens.new"
for role in admin referee viewer; do
  t="$(token)"
  printf '%s\n' "$t" > "$dir/$role.token"
  printf 'sha256:%s %s %s-%s\n' "$(printf '%s' "$t" | sha256sum | cut -d' ' -f1)" "$role" "k8s" "$role" >> "$dir/tokens.new"
done
mv "$dir/tokens.new" "$dir/tokens"
echo "tokens in $dir (admin.token is yours to keep)"
