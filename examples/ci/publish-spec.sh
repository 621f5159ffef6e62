#!/usr/bin/env bash
# Publishes a Swagger 2.0 document to Specbase from a CI/CD job: PUT /api/<account>/<api>/spec, and
# with SPECBASE_RELEASE also releases it under that version, in the same request (both or neither).
# Needs bash and curl only. Guide: docs/ci-cd.md.
#
#   SPECBASE_URL       where Specbase is, e.g. https://specbase.example.com
#   SPECBASE_TOKEN     an API token with scope api, and api_release when SPECBASE_RELEASE is set
#   SPECBASE_ACCOUNT   the account id (an integer) of the API
#   SPECBASE_API       the API's id
#   SPEC_FILE          the document, YAML or JSON
#   SPECBASE_RELEASE   optional: the version label to release it as (e.g. 1.4.0, v1.4.0+build.7)
#   SPECBASE_IF_MATCH  optional: the revision the API must still be at (else 412 revision_conflict)
#
# Prints Specbase's answer on stdout and exits 0 on a 2xx. Otherwise prints the status and the
# answer (application/problem+json) on stderr and exits 1; exits 2 when a variable is missing.
set -euo pipefail

for name in SPECBASE_URL SPECBASE_TOKEN SPECBASE_ACCOUNT SPECBASE_API SPEC_FILE; do
  if [ -z "${!name:-}" ]; then
    echo "publish-spec: $name is required" >&2
    exit 2
  fi
done
if [ ! -r "$SPEC_FILE" ]; then
  echo "publish-spec: cannot read SPEC_FILE $SPEC_FILE" >&2
  exit 2
fi

# Percent-encodes a query value byte by byte ("+" would otherwise arrive as a space).
urlencode() {
  local LC_ALL=C value=$1 encoded='' char i
  for ((i = 0; i < ${#value}; i++)); do
    char=${value:i:1}
    case $char in
      [A-Za-z0-9._~-]) encoded+=$char ;;
      *) printf -v char '%%%02X' "'$char"; encoded+=$char ;;
    esac
  done
  printf '%s' "$encoded"
}

url="${SPECBASE_URL%/}/api/$(urlencode "$SPECBASE_ACCOUNT")/$(urlencode "$SPECBASE_API")/spec"
if [ -n "${SPECBASE_RELEASE:-}" ]; then
  url+="?release=$(urlencode "$SPECBASE_RELEASE")"
fi
case $SPEC_FILE in
  *.json) type=application/json ;;
  *) type=application/yaml ;;
esac
headers=(--header "Content-Type: $type")
if [ -n "${SPECBASE_IF_MATCH:-}" ]; then
  headers+=(--header "If-Match: \"$SPECBASE_IF_MATCH\"")
fi

answer=$(mktemp)
trap 'rm -f "$answer"' EXIT
# The token goes to curl through a file descriptor, not its command line (visible in ps).
status=$(curl --silent --show-error --connect-timeout 10 --max-time 120 \
  --request PUT --output "$answer" --write-out '%{http_code}' \
  --header @<(printf 'Authorization: Bearer %s\n' "$SPECBASE_TOKEN") \
  "${headers[@]}" --data-binary "@$SPEC_FILE" "$url")

case $status in
  2??)
    cat "$answer"
    echo
    ;;
  *)
    echo "publish-spec: PUT $url answered $status:" >&2
    cat "$answer" >&2
    echo >&2
    exit 1
    ;;
esac
