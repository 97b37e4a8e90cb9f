# hyper(1) completion for fish, as printed by: hyper completions fish
#
# This text is fixed: every machine and every run print the same bytes. Pressing
# TAB never starts hyper, reads no repository and reaches no network, so it can
# neither be refused nor stall. It offers command words, the store sub-verb, the
# shell names and the three configuration flags, plus directories after
# --repo-dir; artefact names, Provider names and run ids are never offered.
#
# To enable: hyper completions fish > ~/.config/fish/completions/hyper.fish

# True when the cursor is on word $argv[1] after "hyper" (the command word is 1).
function __hyper_at_word
    set -l typed (commandline -opc)
    test (count $typed) -eq $argv[1]
end

# True when the command word typed so far is one of $argv.
function __hyper_command_is
    set -l typed (commandline -opc)
    set -q typed[2]; and contains -- $typed[2] $argv
end

# Nothing completes to a file name; --repo-dir below asks for directories itself.
complete -c hyper -f

complete -c hyper -n '__hyper_at_word 1' -a '@@COMMANDS@@'
complete -c hyper -n '__hyper_at_word 2; and __hyper_command_is @@NESTED@@' -a '@@SUB_VERBS@@'
# One shell name and nothing after it: this command takes no flag.
complete -c hyper -n '__hyper_at_word 2; and __hyper_command_is completions' -a '@@SHELLS@@'

# The configuration flags belong to the tree's commands alone.
for flag in @@GLOBALS@@
    set -l name (string replace -r -- '^--' '' $flag)
    if test $name = repo-dir
        complete -c hyper -n '__hyper_command_is @@TREE_WORDS@@' -l $name -x -a '(__fish_complete_directories)'
    else
        complete -c hyper -n '__hyper_command_is @@TREE_WORDS@@' -l $name
    end
end
