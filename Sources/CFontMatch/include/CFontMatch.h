#ifndef XHUD_CFONTMATCH_H
#define XHUD_CFONTMATCH_H

/* Fontconfig's match for a label's font description, as Pango makes it: needs fontconfig
 * alone (no Cairo, no X), so that the font helper (xhud-fonts), which a client starts beside a
 * server that has no kept match, loads in a third of the server's time and reads fontconfig's
 * configuration while the server's libraries are still being mapped. */

struct _FcPattern;

struct _FcConfig;

/* Fontconfig's configuration and fonts, loaded as FcInit loads them but without also parsing the
 * configuration files that are available and not enabled (conf.avail: FcInit parses them only to
 * list them, and they are more than half the XML it reads): the same rules and fonts, in half
 * the time. A new reference (FcConfigDestroy it), or NULL. Where the configuration cannot be
 * read, or names no cache directory, fontconfig's own loading is used (its fallbacks). */
struct _FcConfig *xhud_font_config_new(void);

/* Makes `xhud_font_config_new`'s configuration the current one, once a process (later calls
 * return at once). For xhud's own programs (the font helper, the server's warm-up thread),
 * before anything else loads fontconfig: it replaces a configuration already current. */
void xhud_font_config_load(void);

/* The match for a description with these fields (FcFontMatch's; FcPatternDestroy it), or NULL.
 * `families` is a comma-separated list; `weight` is OpenType (400 regular, 700 bold); `slant`
 * and `width` are fontconfig's; `dpi` turns the pixel size into points for fontconfig's rules.
 * `program` is the name the configuration's rules see (fontconfig's `prgname`): NULL for this
 * process's own, the server's for the font helper, whose matches the server draws with.
 * Loads the configuration if no one has. */
struct _FcPattern *xhud_font_match_pattern(const char *families, double weight, int slant, int width,
                                           double pixel_size, double dpi, const char *program);

/* The same match as text (FcNameUnparse; free() it), or NULL: what a process keeps for the next. */
char *xhud_font_match(const char *families, double weight, int slant, int width,
                      double pixel_size, double dpi, const char *program);

/* What the text's Cairo font options (grey antialiasing, slight hinting: HUDRender's
 * PangoText.fontOptions over an image surface's) add to a pattern between the configuration's
 * rules and fontconfig's defaults, as cairo_ft_font_options_substitute adds them. Written out
 * here so that matching needs no Cairo; a test holds it to Cairo's own. */
void xhud_font_substitute_options(struct _FcPattern *pattern);

#endif
