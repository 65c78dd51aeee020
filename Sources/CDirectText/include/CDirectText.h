#ifndef XHUD_CDIRECTTEXT_H
#define XHUD_CDIRECTTEXT_H

/* Text drawn without Pango: one line in one font, matched by fontconfig as Pango matches it,
 * shaped by HarfBuzz as Pango shapes it (kerning, ligatures), its glyph positions rounded to
 * whole pixels as Pango rounds them, drawn by Cairo. The same pixels as Pango for what it takes
 * (HUDRender's DirectText decides what), without Pango's 17 libraries and its first layout: a
 * cold HUD's label waits for fontconfig's configuration and HarfBuzz (one library) only.
 *
 * HarfBuzz is loaded on first use, like Pango (CPango.h); its stable ABI used here is declared
 * in direct_text.c, so no HarfBuzz header is needed to build. A font does not change once
 * opened: any thread may shape and draw with it (HUDRender keeps one per description for the
 * whole process); a line belongs to whoever shaped it. */

#include <cairo.h>
#include <stdint.h>

typedef struct xhud_direct_font xhud_direct_font;

/* The largest font file opened (the largest CJK collections are a few tens of MB). */
#define XHUD_MAX_FONT_BYTES (256 << 20)

/* Loads HarfBuzz (once per process, any thread). 1 when it is usable. Calling it early, while
 * fontconfig reads its configuration on another thread, takes it off the first text's path. */
int xhud_direct_load(void);

/* The font Pango would pick for a description with these fields (CFontMatch's match), all of
 * its characters in that one font. NULL when no font matches, or the match is one only Pango
 * draws right (variable, synthesized, with a matrix or features of its own). `options` are the
 * text's (PangoText.fontOptions over an image surface's), which the match was made for. */
xhud_direct_font *xhud_direct_font_open(const char *families, double weight, int slant, int width,
                                        double pixel_size, double dpi, const cairo_font_options_t *options);
void xhud_direct_font_close(xhud_direct_font *font);

/* Opens a match kept as text (from CFontMatch's `xhud_font_match` or `xhud_direct_font_match_text`);
 * NULL unless the file it names is a regular file of at most XHUD_MAX_FONT_BYTES.
 * It reads no configuration: a process can draw its first text before fontconfig has read its
 * own (FontMatchCache says when a kept match still holds). NULL as `xhud_direct_font_open`. */
xhud_direct_font *xhud_direct_font_open_match(const char *match_text, const cairo_font_options_t *options);

/* The font's match as text (free() it); the file a match names (free() it), or NULL. */
char *xhud_direct_font_match_text(const xhud_direct_font *font);
char *xhud_direct_match_file(const char *match_text);

/* What fontconfig's matches depend on, one path a line (free() it): "f PATH" for each
 * configuration file it read, "d PATH" for its configuration and font directories. Loads the
 * configuration if no one has. */
char *xhud_fontconfig_sources(void);
int xhud_fontconfig_version(void);

/* Whether the font has a glyph for the character (Pango would take another font if not). */
int xhud_direct_font_covers(const xhud_direct_font *font, uint32_t ch);

/* Ascender and descender (positive below the baseline) in Pango units (1/1024 pixel). */
void xhud_direct_font_extents(const xhud_direct_font *font, int *ascent, int *descent);

/* One shaped line: glyph ids and x positions in Pango units from the line's start, each
 * advance rounded to a whole pixel; `width` is their sum. */
typedef struct {
    int count;
    int width;
    uint32_t *glyphs;
    int *x;
    int *y;
} xhud_direct_line;

/* Shapes UTF-8 text as one left-to-right run. 0 (and nothing to free) when a glyph is missing
 * or HarfBuzz cannot be loaded: such text is Pango's. */
int xhud_direct_shape(const xhud_direct_font *font, const char *utf8, int length, xhud_direct_line *line);
void xhud_direct_line_free(xhud_direct_line *line);

/* Draws the line with its first glyph's origin at (x, y) in user space, in the current source. */
void xhud_direct_show(cairo_t *cr, const xhud_direct_font *font, const xhud_direct_line *line, double x, double y);

#endif
