#!/bin/bash
# xhud's completions, written by `xhud --generate-completion-script bash` from the options the
# command parses (packaging/completions/generate.sh).

# Files ending with one of the extensions given, and directories.
_xhud_files() {
    local ext
    COMPREPLY=()
    for ext in "$@"; do
        COMPREPLY+=($(compgen -f -X "!*.$ext" -- "$cur"))
    done
    COMPREPLY+=($(compgen -d -- "$cur"))
    compopt -o filenames 2>/dev/null
}

_xhud() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev= i positionals=0 word
    (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
    # After --: the command to wrap, then its arguments.
    for (( i = 1; i < COMP_CWORD; i++ )); do
        if [[ ${COMP_WORDS[i]} == -- ]]; then
            if (( i + 1 == COMP_CWORD )); then
                COMPREPLY=($(compgen -c -- "$cur"))
            else
                COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null
            fi
            return
        fi
    done
    # --option=VALUE: one word, or three where '=' breaks words ($COMP_WORDBREAKS).
    if [[ $cur == --*=* ]]; then
        prev=${cur%%=*}
        cur=${cur#*=}
    elif [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    case $prev in
        --mode) COMPREPLY=($(compgen -W 'indeterminate determinate annular bar success error info warning custom text spinner pie ring annular-determinate determinate-horizontal-bar horizontal-bar custom-view image' -- "$cur")); return ;;
        --image) _xhud_files png svg svgz jpg jpeg gif bmp webp; return ;;
        --success-image) _xhud_files png svg svgz jpg jpeg gif bmp webp; return ;;
        --error-image) _xhud_files png svg svgz jpg jpeg gif bmp webp; return ;;
        --info-image) _xhud_files png svg svgz jpg jpeg gif bmp webp; return ;;
        --warning-image) _xhud_files png svg svgz jpg jpeg gif bmp webp; return ;;
        --spinner) COMPREPLY=($(compgen -W 'ring spokes' -- "$cur")); return ;;
        --style) COMPREPLY=($(compgen -W 'dark light custom' -- "$cur")); return ;;
        --position) COMPREPLY=($(compgen -W 'center top bottom left right top-left top-right bottom-left bottom-right' -- "$cur")); return ;;
        --config) _xhud_files toml; return ;;
        --animation) COMPREPLY=($(compgen -W 'fade zoom zoom-in zoom-out pop none' -- "$cur")); return ;;
        --urgency) COMPREPLY=($(compgen -W 'low normal critical' -- "$cur")); return ;;
        --backend) COMPREPLY=($(compgen -W 'x11 wayland' -- "$cur")); return ;;
        --label|--details|--progress|--button|--image-size|--ring-thickness|--ring-radius|--alternate-color|--bezel-color|--content-color|--mask|--blur|--margin|--spacing|--corner-radius|--min-size|--offset|--font|--details-font|--max-text-width|--theme|--icon-theme|--fade-in|--fade-out|--grace|--min-show|--hide-after|--min-duration|--max-duration|--window|--monitor|--geometry|--scale|--result-time|--kill-timeout|--id|--delay|--linger|--render-png|--bus-app|--bus-category|--bus-urgency|--text|--percentage|--title|--width|--height|--cancel-label|--ok-label|--window-icon|--attach|--timeout|--extra-button|--icon-name|--display|--class|--name|--gtk-module) return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '--mode --label --details --progress --button --image --image-size --tint-image --no-tint-image --success-image --error-image --info-image --warning-image --spinner --ring-thickness --ring-radius --show-value --no-show-value --alternate --no-alternate --alternate-color --markup --no-markup --smooth --no-smooth --style --bezel-color --content-color --mask --shadow --no-shadow --blur --margin --spacing --corner-radius --min-size --square --no-square --position --offset --font --details-font --max-text-width --theme --config --print-config --icon-theme --animation --fade-in --fade-out --grace --min-show --hide-after --wait --urgency --skip --no-skip --min-duration --max-duration --click-through --no-click-through --window --monitor --geometry --scale --backend --result-time --kill-timeout --progress-from-output --no-progress-from-output --id --delay --linger --notifications --no-notifications --replace --text --percentage --pulsate --auto-close --auto-kill --no-cancel --cancel-label --attach --timeout --extra-button --gtk-module --version --help -h' -- "$cur"))
        return
    fi
    # The verb comes first: count the words before this one that are not options or
    # their values.
    for (( i = 1; i < COMP_CWORD; i++ )); do
        word=${COMP_WORDS[i]}
        case $word in
            --mode|--label|--details|--progress|--button|--image|--image-size|--success-image|--error-image|--info-image|--warning-image|--spinner|--ring-thickness|--ring-radius|--alternate-color|--style|--bezel-color|--content-color|--mask|--blur|--margin|--spacing|--corner-radius|--min-size|--position|--offset|--font|--details-font|--max-text-width|--theme|--config|--icon-theme|--animation|--fade-in|--fade-out|--grace|--min-show|--hide-after|--urgency|--min-duration|--max-duration|--window|--monitor|--geometry|--scale|--backend|--result-time|--kill-timeout|--id|--delay|--linger|--render-png|--bus-app|--bus-category|--bus-urgency|--text|--percentage|--title|--width|--height|--cancel-label|--ok-label|--window-icon|--attach|--timeout|--extra-button|--icon-name|--display|--class|--name|--gtk-module) (( i++ )) ;;
            -*) ;;
            *) (( positionals++ )) ;;
        esac
    done
    if (( positionals == 0 )); then
        COMPREPLY=($(compgen -W 'success error info warning hide list push pop server notifications' -- "$cur"))
    fi
}
complete -F _xhud xhud
