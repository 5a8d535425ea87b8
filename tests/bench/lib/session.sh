# The benchmarks' sign-in, sourced by the scripts in tests/bench: every one of them signs the bench administrator
# (created with `api users create --email bench@compass.test`, password Bench-passw0rd) in and chooses a client.

# Prints the client token of the bench administrator at the api BASE ($1) for the client id $2.
bench_token() {
  local basic
  basic=$(curl -sf "$1/auth-api/auth/login" -H 'content-type: application/json' \
    -d '{"username":"bench@compass.test","password":"Bench-passw0rd"}' \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
  curl -sf "$1/auth-api/session/client-login" -H "authorization: Bearer $basic" -H 'content-type: application/json' \
    -d "{\"clientId\":$2}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])'
}
