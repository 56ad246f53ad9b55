# A program bot in sh (builtins only: it may not start processes) that answers every guess with its
# inventory on stderr: its capability sets, no_new_privs and seccomp, as /proc/self/status says.
while IFS= read -r request; do
    case "$request" in
        *'"setup"'*) echo '{"ok": true}' ;;
        *)
            while IFS= read -r line; do
                case "$line" in Cap*|NoNewPrivs*|Seccomp*) echo "$line" >&2 ;; esac
            done < /proc/self/status
            echo '{"error": "inventory taken"}' ;;
    esac
done
