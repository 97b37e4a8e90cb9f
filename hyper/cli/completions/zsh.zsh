#compdef hyper
# hyper(1) completion for zsh, as printed by: hyper completions zsh
#
# This text is fixed: every machine and every run print the same bytes. Pressing
# TAB never starts hyper, reads no repository and reaches no network, so it can
# neither be refused nor stall. It offers command words, the store sub-verb, the
# shell names and the three configuration flags, plus directories after
# --repo-dir; artefact names, Provider names and run ids are never offered.
#
# To enable: save it as _hyper in a directory on $fpath, or source it after
# compinit has run.

_hyper() {
    # Named with a prefix: zsh reserves several plain words (commands, words)
    # as parameters of its own inside completion functions.
    local -a hyper_offer

    if (( CURRENT == 2 )); then
        hyper_offer=(@@COMMANDS@@)
    else
        case $words[2] in
            completions)
                # One shell name and nothing after it: this command takes no flag.
                if (( CURRENT == 3 )); then
                    hyper_offer=(@@SHELLS@@)
                fi
                ;;
            @@TREE_PATTERN@@)
                if [[ $words[CURRENT-1] == --repo-dir ]]; then
                    _path_files -/
                    return
                fi
                hyper_offer=(@@GLOBALS@@)
                if [[ $words[2] == @@NESTED@@ ]] && (( CURRENT == 3 )); then
                    hyper_offer=(@@SUB_VERBS@@ $hyper_offer)
                fi
                ;;
            # version and mcp take nothing, and an unknown word has nothing to offer.
        esac
    fi

    (( ${#hyper_offer} )) && compadd -- $hyper_offer
}

# Autoloaded from $fpath, this file is the body of _hyper and runs it; sourced,
# it registers the function instead.
if [[ $funcstack[1] == _hyper ]]; then
    _hyper "$@"
else
    compdef _hyper hyper
fi
