#!/usr/bin/env bash
# The competition's steps, as the CI workflow runs them (.github/workflows/competition.yml) and as a
# test runs them end to end (tests/integration/test_competition.py).
#
#   steps.sh check BOT ...          a submission's gate: every bot named passes `hbs check`
#   steps.sh publish SECRETS_FILE   the tournament of every bot in bots/ on the hidden secrets, then the
#                                   board as Markdown and as a site to publish (without the secrets)
#
# Settings (environment): GAME (default mastermind), HBS (default `hbs`), OUT (default `public`).
set -euo pipefail
cd "$(dirname "$0")"
hbs=(${HBS:-hbs})
game=${GAME:-mastermind}
out=${OUT:-public}

case "${1:-}" in
check)
    shift
    [ $# -gt 0 ] || { echo "steps.sh check BOT ..." >&2; exit 2; }
    for bot in "$@"; do
        "${hbs[@]}" check "$bot" --bots-dir bots
    done
    ;;
publish)
    secrets=${2:?steps.sh publish SECRETS_FILE}
    bots=()
    for entry in bots/*; do  # a bot is bots/NAME.py or a folder bots/NAME/ (with its bot.toml)
        name=$(basename "$entry" .py)
        [[ $name =~ ^[A-Za-z][A-Za-z0-9_]*$ ]] && bots+=(--bot "$name")
    done
    [ ${#bots[@]} -gt 0 ] || { echo "no bot in bots/" >&2; exit 2; }
    # each bot confined, on the same secrets; a bot that fails to load or set up is skipped, not fatal
    "${hbs[@]}" tournament "${bots[@]}" --bots-dir bots --game "$game" --secrets "$secrets" \
        --scoreboard scoreboard --json > tournament.json
    "${hbs[@]}" board --scoreboard scoreboard --markdown > standings.md
    "${hbs[@]}" board --scoreboard scoreboard --bots-dir bots --html "$out" --without-secrets
    ;;
*)
    echo "steps.sh check BOT ... | steps.sh publish SECRETS_FILE" >&2
    exit 2
    ;;
esac
