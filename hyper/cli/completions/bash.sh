# hyper(1) completion for bash, as printed by: hyper completions bash
#
# This text is fixed: every machine and every run print the same bytes. Pressing
# TAB never starts hyper, reads no repository and reaches no network, so it can
# neither be refused nor stall. It offers command words, the store sub-verb, the
# shell names and the three configuration flags, plus directories after
# --repo-dir; artefact names, Provider names and run ids are never offered.
#
# To enable: source <(hyper completions bash)

# Directory names may hold spaces or glob characters, so replies are split on
# newlines only, globbing is off while they are built (and restored after), and
# readline is told to quote what it inserts.
__hyper_directories() {
    local glob_was_on=
    case $- in
        *f*) ;;
        *) glob_was_on=1 ;;
    esac
    set -f
    local IFS=$'\n'
    COMPREPLY=($(compgen -d -- "$1"))
    if [ -n "$glob_was_on" ]; then
        set +f
    fi
    compopt -o filenames 2>/dev/null
    return 0
}

_hyper() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local prev=${COMP_WORDS[COMP_CWORD-1]}
    local offer=
    COMPREPLY=()

    if [ "$COMP_CWORD" -eq 1 ]; then
        offer='@@COMMANDS@@'
    else
        case ${COMP_WORDS[1]} in
            completions)
                # One shell name and nothing after it: this command takes no flag.
                if [ "$COMP_CWORD" -eq 2 ]; then
                    offer='@@SHELLS@@'
                fi
                ;;
            @@TREE_PATTERN@@)
                if [ "$prev" = --repo-dir ]; then
                    __hyper_directories "$cur"
                    return 0
                fi
                offer='@@GLOBALS@@'
                if [ "${COMP_WORDS[1]}" = @@NESTED@@ ] && [ "$COMP_CWORD" -eq 2 ]; then
                    offer="@@SUB_VERBS@@ $offer"
                fi
                ;;
            # version and mcp take nothing, and an unknown word has nothing to offer.
        esac
    fi

    if [ -n "$offer" ]; then
        COMPREPLY=($(compgen -W "$offer" -- "$cur"))
    fi
    return 0
}

complete -F _hyper hyper
