#!/usr/bin/env bash
# Checks an API description against the spec Specbase has for the API, writing nothing
# (PUT /api/<account>/<api>/spec?dryRun=true), and fails the job when it would break clients.
# Needs bash, curl and jq. Guide: docs/ci-cd.md ("Fail a pipeline on a breaking change").
#
#   SPECBASE_URL       where Specbase is, e.g. https://specbase.example.com
#   SPECBASE_TOKEN     an API token with scope api (a dry run needs what a real update needs)
#   SPECBASE_ACCOUNT   the account id (an integer) of the API
#   SPECBASE_API       the API's id
#   SPEC_FILE          the document, YAML or JSON
#   SPECBASE_FAIL_ON   optional: breaking (default) or warning, the lowest level that fails the job
#
# Prints one line per change (level, rule, sentence, JSON pointer) on stdout. Exits 0 when nothing
# at SPECBASE_FAIL_ON or above changed, 1 when something did or when Specbase refused the document
# (the problem+json on stderr), 2 when a variable is missing. Under GitHub Actions each failing
# change is also an ::error annotation.
set -euo pipefail

for name in SPECBASE_URL SPECBASE_TOKEN SPECBASE_ACCOUNT SPECBASE_API SPEC_FILE; do
  if [ -z "${!name:-}" ]; then
    echo "check-breaking: $name is required" >&2
    exit 2
  fi
done
if [ ! -r "$SPEC_FILE" ]; then
  echo "check-breaking: cannot read SPEC_FILE $SPEC_FILE" >&2
  exit 2
fi
fail_on=${SPECBASE_FAIL_ON:-breaking}
case $fail_on in
  breaking) failing='["breaking"]' ;;
  warning) failing='["breaking","warning"]' ;;
  *)
    echo "check-breaking: SPECBASE_FAIL_ON must be breaking or warning, not $fail_on" >&2
    exit 2
    ;;
esac
command -v jq >/dev/null || { echo 'check-breaking: jq is required' >&2; exit 2; }

# Path segments are sent as given; ids and account numbers need no encoding.
url="${SPECBASE_URL%/}/api/$SPECBASE_ACCOUNT/$SPECBASE_API/spec?dryRun=true"
case $SPEC_FILE in
  *.json) type=application/json ;;
  *) type=application/yaml ;;
esac

answer=$(mktemp)
trap 'rm -f "$answer"' EXIT
# The token goes to curl through a file descriptor, not its command line (visible in ps).
status=$(curl --silent --show-error --connect-timeout 10 --max-time 120 \
  --request PUT --output "$answer" --write-out '%{http_code}' \
  --header @<(printf 'Authorization: Bearer %s\n' "$SPECBASE_TOKEN") \
  --header "Content-Type: $type" --data-binary "@$SPEC_FILE" "$url")

# The changes: from the dry run's answer, or from a 409 breaking_change (the API's policy refuses them).
if [ "$status" = 200 ]; then
  changes=$(jq '.changes' "$answer")
elif [ "$status" = 409 ] && [ "$(jq -r '.code' "$answer" 2>/dev/null)" = breaking_change ]; then
  changes=$(jq '{counts, items}' "$answer")
  echo "check-breaking: $(jq -r '.detail' "$answer")"
else
  echo "check-breaking: PUT $url answered $status:" >&2
  cat "$answer" >&2
  echo >&2
  exit 1
fi

jq -r '"check-breaking: \(.counts.breaking) breaking, \(.counts.warning) warning, \(.counts.info) info"' <<<"$changes"
jq -r '.items[] | "\(.level | ascii_upcase | . + "         "[0:(9 - length)])\(.rule)  \(.message)  (\(.pointer))"' <<<"$changes"

failures=$(jq --argjson failing "$failing" '[.items[] | select(.level as $l | $failing | index($l))] | length' <<<"$changes")
if [ "$failures" -gt 0 ]; then
  if [ "${GITHUB_ACTIONS:-}" = true ]; then
    jq -r --argjson failing "$failing" '.items[] | select(.level as $l | $failing | index($l)) | "::error title=\(.rule)::\(.message)"' <<<"$changes"
  fi
  echo "check-breaking: $failures change(s) at $fail_on or above: the job fails" >&2
  exit 1
fi
