function __xhud_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __xhud_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __xhud_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __xhud_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __xhud_parse_tokens -S
    set -l unparsed_tokens (__xhud_tokens -pc)
    switch $unparsed_tokens[1]
    case 'xhud'
        __xhud_parse_subcommand -r 3 'mode=' 'label=' 'details=' 'progress=' 'button=' 'image=' 'image-size=' 'tint-image' 'no-tint-image' 'success-image=' 'error-image=' 'info-image=' 'warning-image=' 'spinner=' 'ring-thickness=' 'ring-radius=' 'show-value' 'no-show-value' 'alternate' 'no-alternate' 'alternate-color=' 'markup' 'no-markup' 'smooth' 'no-smooth' 'style=' 'bezel-color=' 'content-color=' 'mask=' 'shadow' 'no-shadow' 'blur=' 'margin=' 'spacing=' 'corner-radius=' 'min-size=' 'square' 'no-square' 'offset=' 'font=' 'details-font=' 'max-text-width=' 'theme=' 'config=' 'print-config' 'icon-theme=' 'animation=' 'fade-in=' 'fade-out=' 'grace=' 'min-show=' 'hide-after=' 'wait' 'min-duration=' 'max-duration=' 'click-through' 'no-click-through' 'window=' 'monitor=' 'geometry=' 'scale=' 'result-time=' 'kill-timeout=' 'progress-from-output' 'no-progress-from-output' 'id=' 'delay=' 'linger=' 'notifications' 'no-notifications' 'replace' 'text=' 'percentage=' 'pulsate' 'auto-close' 'auto-kill' 'no-cancel' 'cancel-label=' 'attach=' 'timeout=' 'gtk-module=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __xhud_parse_subcommand -r 1 'version'
        end
    end
end

function __xhud_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __xhud_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __xhud_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __xhud_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__xhud_tokens -p)
    if test -z "$(__xhud_tokens -t)"
        set -l index (count (__xhud_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'xhud' -f
complete -c 'xhud' -n '__xhud_should_offer_completions_for_positional "xhud" -eq 1' -fka 'success error info warning hide list push pop server'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" mode' -l 'mode' -d 'indeterminate (spinner) | determinate (pie) | annular (ring: progress) | bar | success | error | info | warning | custom (--image) | text; MBProgressHUD\'s names too, also in camelCase' -rfka 'indeterminate determinate annular bar success error info warning custom text spinner pie ring annular-determinate determinate-horizontal-bar horizontal-bar custom-view image'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" label' -l 'label' -d 'The single-line label (ellipsized when too long).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" details' -l 'details' -d 'The multi-line details label.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" progress' -l 'progress' -d 'Progress 0...1 for determinate, annular and bar.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" button' -l 'button' -d 'A button with this title; clicking it cancels (exit 1).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" image' -l 'image' -d 'Image for --mode custom: a PNG or SVG file, or an icon name from the icon theme (dialog-information).' -rfa '(set -l exts \'png\' \'svg\' \'svgz\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" image-size' -l 'image-size' -d 'Size in pixels of the box the image is fitted into (default 37).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" tint-image' -l 'tint-image' -d 'Tint the image with the content colour.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" no-tint-image' -l 'no-tint-image' -d 'Tint the image with the content colour.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" success-image' -l 'success-image' -d 'An image or icon name drawn instead of the success icon (SVProgressHUD\'s setSuccessImage).' -rfa '(set -l exts \'png\' \'svg\' \'svgz\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" error-image' -l 'error-image' -d 'An image or icon name drawn instead of the error icon.' -rfa '(set -l exts \'png\' \'svg\' \'svgz\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" info-image' -l 'info-image' -d 'An image or icon name drawn instead of the info icon.' -rfa '(set -l exts \'png\' \'svg\' \'svgz\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" warning-image' -l 'warning-image' -d 'An image or icon name drawn instead of the warning icon.' -rfa '(set -l exts \'png\' \'svg\' \'svgz\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" spinner' -l 'spinner' -d 'ring (SVProgressHUD) | spokes (classic activity indicator)' -rfka 'ring spokes'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" ring-thickness' -l 'ring-thickness' -d 'Line width of the spinner\'s ring and the progress ring, 0.5-64 (default 2; SVProgressHUD\'s ringThickness).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" ring-radius' -l 'ring-radius' -d 'Radius of those rings, 1-256 (default: the indicator\'s own; SVProgressHUD\'s ringRadius).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" show-value' -l 'show-value' -d 'Show the value (45%) beside a bar or inside a ring.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" no-show-value' -l 'no-show-value' -d 'Show the value (45%) beside a bar or inside a ring.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" alternate' -l 'alternate' -d 'The bar\'s alternate state (e.g. muted), drawn in --alternate-color.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" no-alternate' -l 'no-alternate' -d 'The bar\'s alternate state (e.g. muted), drawn in --alternate-color.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" alternate-color' -l 'alternate-color' -d 'Colour of the alternate state (default: a muted red).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" markup' -l 'markup' -d 'Interpret label and details as Pango markup (otherwise only zenity\'s --text is).'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" no-markup' -l 'no-markup' -d 'Interpret label and details as Pango markup (otherwise only zenity\'s --text is).'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" smooth' -l 'smooth' -d 'Ease progress changes over 0.2 s (default: each value is on screen exactly in the next frame).'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" no-smooth' -l 'no-smooth' -d 'Ease progress changes over 0.2 s (default: each value is on screen exactly in the next frame).'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" style' -l 'style' -d 'dark | light | custom' -rfka 'dark light custom'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" bezel-color' -l 'bezel-color' -d 'Bezel colour: #RRGGBB[AA], rgba(r,g,b,a), a name, NAME/ALPHA.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" content-color' -l 'content-color' -d 'Colour of label, details, button and indicator.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" mask' -l 'mask' -d 'none (click-through) | clear (blocks input) | black | gradient | COLOR | blur | blur:COLOR (blurred, tinted). Default: clear for spinner and progress, none for notifications.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" shadow' -l 'shadow' -d 'A drop shadow under the bezel (default on).'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" no-shadow' -l 'no-shadow' -d 'A drop shadow under the bezel (default on).'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" blur' -l 'blur' -d 'Blur radius of what shows through the bezel, in pixels (default 20, a material like iOS\'s; 0: none).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" margin' -l 'margin' -d 'Margin around the content and from the region\'s edges (default 20).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" spacing' -l 'spacing' -d 'Space between the indicator, label, details and button (default 4).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" corner-radius' -l 'corner-radius' -d 'Corner radius of the bezel (default 10).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" min-size' -l 'min-size' -d 'Minimum bezel size, WxH.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" square' -l 'square' -d 'Make the bezel square when it fits.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" no-square' -l 'no-square' -d 'Make the bezel square when it fits.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" offset' -l 'offset' -d 'Offset of the bezel from the centre, X,Y; a huge value pins it to that edge.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" font' -l 'font' -d 'Font of the label (Pango description, e.g. \'Sans Bold 16px\').' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" details-font' -l 'details-font' -d 'Font of the details label.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" max-text-width' -l 'max-text-width' -d 'Widest the label and details may be before they wrap or are ellipsized (default 300).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" theme' -l 'theme' -d 'A theme: sv-dark, sv-light, mb-classic, osd, or a theme file (see --print-config).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" config' -l 'config' -d 'Read this configuration file instead of $XDG_CONFIG_HOME/xhud/config.toml.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'toml\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" print-config' -l 'print-config' -d 'Print the effective configuration, and where each value comes from, then exit.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" icon-theme' -l 'icon-theme' -d 'Icon theme for --image NAME (default: GTK\'s gtk-icon-theme-name, then hicolor).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" animation' -l 'animation' -d 'fade | zoom | zoom-in | zoom-out | pop | none' -rfka 'fade zoom zoom-in zoom-out pop none'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" fade-in' -l 'fade-in' -d 'Seconds the show animation takes (default: the animation\'s own, 0.3; pop 0.15).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" fade-out' -l 'fade-out' -d 'Seconds the hide animation takes (default as --fade-in).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" grace' -l 'grace' -d 'Seconds to wait before showing; a HUD hidden before then never appears (default 0; 0.5 when wrapping).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" min-show' -l 'min-show' -d 'Once shown, stay at least this many seconds (default 0; 0.5 when wrapping).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" hide-after' -l 'hide-after' -d 'Hide after this many seconds.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" wait' -l 'wait' -d 'Notifications: wait until the HUD is hidden instead of returning at once.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" min-duration' -l 'min-duration' -d 'Notifications: shortest display time (SVProgressHUD\'s minimumDismissTimeInterval).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" max-duration' -l 'max-duration' -d 'Notifications: longest display time.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" click-through' -l 'click-through' -d 'Let clicks pass through a notification instead of dismissing it.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" no-click-through' -l 'no-click-through' -d 'Let clicks pass through a notification instead of dismissing it.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" window' -l 'window' -d 'Parent window: ID | active | pointer | root. The HUD follows it and ends with it.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" monitor' -l 'monitor' -d 'Parent monitor: pointer | focused | primary | NAME | INDEX (default: pointer).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" geometry' -l 'geometry' -d 'Parent region WxH+X+Y in screen pixels.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" scale' -l 'scale' -d 'Scale factor (default: Xft.dpi / 96).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" result-time' -l 'result-time' -d 'Wrapping: seconds the success or error icon stays after the command ends (0: none).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" kill-timeout' -l 'kill-timeout' -d 'Wrapping: seconds between SIGTERM and SIGKILL when cancelled.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" progress-from-output' -l 'progress-from-output' -d 'Wrapping: read progress from the command\'s output (the last NN% on a line); the output still passes through untouched.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" no-progress-from-output' -l 'no-progress-from-output' -d 'Wrapping: read progress from the command\'s output (the last NN% on a line); the output still passes through untouched.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" id' -l 'id' -d 'Named HUD: show or update the HUD with this name on this display.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" delay' -l 'delay' -d 'hide and pop: seconds to wait before hiding.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" linger' -l 'linger' -d 'Named HUD server: seconds it stays after its last HUD is hidden, to serve the next key press warm (default 10).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" notifications' -l 'notifications' -d 'xhud server: serve desktop notifications (org.freedesktop.Notifications on the session bus: notify-send) as HUDs.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" no-notifications' -l 'no-notifications' -d 'xhud server: serve desktop notifications (org.freedesktop.Notifications on the session bus: notify-send) as HUDs.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" replace' -l 'replace' -d 'xhud server --notifications: take the notification name over from the daemon that has it (dunst, ...).'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" text' -l 'text' -d 'zenity: the label, Pango markup as in zenity (--no-markup: plain text).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" percentage' -l 'percentage' -d 'zenity: initial percentage 0-100 (clamped, as zenity does).' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" pulsate' -l 'pulsate' -d 'zenity: the spinner.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" auto-close' -l 'auto-close' -d 'zenity: hide and exit 0 when the percentage reaches 100.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" auto-kill' -l 'auto-kill' -d 'zenity: on cancel, also kill the parent process.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" no-cancel' -l 'no-cancel' -d 'zenity: no Cancel button (zenity --progress shows one by default).'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" cancel-label' -l 'cancel-label' -d 'zenity: the Cancel button\'s title.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" attach' -l 'attach' -d 'zenity: the parent window (an X window ID), as --window.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" timeout' -l 'timeout' -d 'zenity: hide after this many seconds and exit 5.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" gtk-module' -l 'gtk-module' -d 'zenity: accepted and ignored.' -rfka ''
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" version' -l 'version' -d 'Show the version.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_positional "xhud" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'xhud' -n '__xhud_should_offer_completions_for_flags_or_options "xhud help" version' -l 'version' -d 'Show the version.'
