#ifndef XHUD_CPANGO_H
#define XHUD_CPANGO_H

/* Pango, loaded when text is first laid out rather than when the program starts.
 *
 * The Pango functions xhud calls are defined in pango_stubs.c under their own names; each one
 * makes sure libpangocairo (and with it Pango, HarfBuzz, GLib and GObject: 17 libraries) is
 * loaded, then calls the real function. The executables do not link those libraries, so a
 * server's first HUD does not wait for them to be mapped and relocated before main: they load on
 * the thread that first lays out text while fontconfig reads its configuration on another
 * (FontWarmup).
 *
 * The declarations below are the part of Pango's and GLib's stable ABI (1.x, 2.x) that xhud
 * uses, written out so that no Pango header, and with it no -lpango, is needed to build. */

#include <cairo.h>
#include <stdint.h>

typedef int gboolean;
typedef int gint;
typedef uint32_t gunichar;
typedef void *gpointer;
typedef struct {
    uint32_t domain;
    gint code;
    char *message;
} GError;

typedef struct _PangoFontMap PangoFontMap;
typedef struct _PangoContext PangoContext;
typedef struct _PangoLayout PangoLayout;
typedef struct _PangoFontDescription PangoFontDescription;
typedef struct _PangoAttrList PangoAttrList;
typedef struct {
    int x, y, width, height;
} PangoRectangle;

#define PANGO_SCALE 1024
typedef enum { PANGO_ALIGN_LEFT, PANGO_ALIGN_CENTER, PANGO_ALIGN_RIGHT } PangoAlignment;
typedef enum { PANGO_ELLIPSIZE_NONE, PANGO_ELLIPSIZE_START, PANGO_ELLIPSIZE_MIDDLE, PANGO_ELLIPSIZE_END } PangoEllipsizeMode;
typedef enum { PANGO_WRAP_WORD, PANGO_WRAP_CHAR, PANGO_WRAP_WORD_CHAR } PangoWrapMode;

/* X(return type, name, parameters, arguments) for each function; V(...) for those returning void. */
#define XHUD_PANGO_FUNCTIONS(X, V) \
    X(PangoFontMap *, pango_cairo_font_map_get_default, (void), ()) \
    X(PangoContext *, pango_font_map_create_context, (PangoFontMap *m), (m)) \
    V(pango_cairo_context_set_font_options, (PangoContext *c, const cairo_font_options_t *o), (c, o)) \
    V(pango_cairo_update_context, (cairo_t *cr, PangoContext *c), (cr, c)) \
    V(pango_cairo_show_layout, (cairo_t *cr, PangoLayout *l), (cr, l)) \
    X(PangoLayout *, pango_layout_new, (PangoContext *c), (c)) \
    V(pango_layout_context_changed, (PangoLayout *l), (l)) \
    X(gboolean, pango_layout_is_ellipsized, (PangoLayout *l), (l)) \
    X(int, pango_layout_get_line_count, (PangoLayout *l), (l)) \
    X(gboolean, pango_layout_xy_to_index, (PangoLayout *l, int x, int y, int *index, int *trailing), (l, x, y, index, trailing)) \
    X(const char *, pango_layout_get_text, (PangoLayout *l), (l)) \
    V(pango_layout_get_pixel_extents, (PangoLayout *l, PangoRectangle *ink, PangoRectangle *logical), (l, ink, logical)) \
    V(pango_layout_set_font_description, (PangoLayout *l, const PangoFontDescription *d), (l, d)) \
    V(pango_layout_set_width, (PangoLayout *l, int w), (l, w)) \
    V(pango_layout_set_height, (PangoLayout *l, int h), (l, h)) \
    V(pango_layout_set_alignment, (PangoLayout *l, PangoAlignment a), (l, a)) \
    V(pango_layout_set_ellipsize, (PangoLayout *l, PangoEllipsizeMode e), (l, e)) \
    V(pango_layout_set_single_paragraph_mode, (PangoLayout *l, gboolean s), (l, s)) \
    V(pango_layout_set_wrap, (PangoLayout *l, PangoWrapMode w), (l, w)) \
    V(pango_layout_set_markup, (PangoLayout *l, const char *m, int n), (l, m, n)) \
    V(pango_layout_set_text, (PangoLayout *l, const char *t, int n), (l, t, n)) \
    X(gboolean, pango_parse_markup, (const char *m, int n, gunichar a, PangoAttrList **al, char **t, gunichar *ac, GError **e), \
      (m, n, a, al, t, ac, e)) \
    X(PangoFontDescription *, pango_font_description_from_string, (const char *s), (s)) \
    X(gint, pango_font_description_get_size, (const PangoFontDescription *d), (d)) \
    X(gboolean, pango_font_description_get_size_is_absolute, (const PangoFontDescription *d), (d)) \
    X(const char *, pango_font_description_get_family, (const PangoFontDescription *d), (d)) \
    X(int, pango_font_description_get_weight, (const PangoFontDescription *d), (d)) \
    X(int, pango_font_description_get_style, (const PangoFontDescription *d), (d)) \
    X(int, pango_font_description_get_stretch, (const PangoFontDescription *d), (d)) \
    V(pango_font_description_set_absolute_size, (PangoFontDescription *d, double s), (d, s)) \
    V(pango_font_description_free, (PangoFontDescription *d), (d)) \
    V(g_object_unref, (gpointer o), (o)) \
    V(g_error_free, (GError *e), (e))

#define XHUD_DECLARE(ret, name, params, args) ret name params;
#define XHUD_DECLARE_VOID(name, params, args) void name params;
XHUD_PANGO_FUNCTIONS(XHUD_DECLARE, XHUD_DECLARE_VOID)
#undef XHUD_DECLARE
#undef XHUD_DECLARE_VOID

/* Loads the libraries and resolves every function; safe from any thread, done once. Returns 1
 * when Pango is usable, 0 otherwise (xhud_pango_error then says why). Calling it early, on a
 * thread with nothing better to do, takes the loading off the path of the first text. */
int xhud_pango_load(void);

const char *xhud_pango_error(void);

#endif
