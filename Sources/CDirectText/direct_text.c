/* Text without Pango (see CDirectText.h). */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>
/* This program's own: a library loaded later never binds to these. */
#pragma GCC visibility push(hidden)
#include "CDirectText.h"
#pragma GCC visibility pop
#include "CFontMatch.h"

/* cairo-ft.h would need FreeType's headers for this declaration. */
cairo_font_face_t *cairo_ft_font_face_create_for_pattern(FcPattern *pattern);

/* HarfBuzz's stable ABI (2.x and later), the part used here. */
typedef struct hb_blob_t hb_blob_t;
typedef struct hb_face_t hb_face_t;
typedef struct hb_font_t hb_font_t;
typedef struct hb_buffer_t hb_buffer_t;
typedef struct { uint32_t codepoint, mask, cluster, var1, var2; } hb_glyph_info_t;
typedef struct { int32_t x_advance, y_advance, x_offset, y_offset; uint32_t var; } hb_glyph_position_t;
typedef struct { int32_t ascender, descender, line_gap, reserved[9]; } hb_font_extents_t;
enum { HB_DIRECTION_LTR = 4, HB_BUFFER_FLAG_BOT = 1, HB_BUFFER_FLAG_EOT = 2 };

#define HB_FUNCTIONS(X) \
    X(hb_blob_t *, hb_blob_create_from_file, (const char *path)) \
    X(void, hb_blob_destroy, (hb_blob_t *b)) \
    X(unsigned, hb_blob_get_length, (hb_blob_t *b)) \
    X(hb_face_t *, hb_face_create, (hb_blob_t *b, unsigned index)) \
    X(void, hb_face_destroy, (hb_face_t *f)) \
    X(hb_font_t *, hb_font_create, (hb_face_t *f)) \
    X(void, hb_font_destroy, (hb_font_t *f)) \
    X(void, hb_font_set_scale, (hb_font_t *f, int x, int y)) \
    X(void, hb_font_make_immutable, (hb_font_t *f)) \
    X(int, hb_font_get_h_extents, (hb_font_t *f, hb_font_extents_t *e)) \
    X(hb_buffer_t *, hb_buffer_create, (void)) \
    X(void, hb_buffer_destroy, (hb_buffer_t *b)) \
    X(void, hb_buffer_add_utf8, (hb_buffer_t *b, const char *t, int n, unsigned offset, int length)) \
    X(void, hb_buffer_set_direction, (hb_buffer_t *b, int d)) \
    X(void, hb_buffer_set_flags, (hb_buffer_t *b, int f)) \
    X(void, hb_buffer_guess_segment_properties, (hb_buffer_t *b)) \
    X(void, hb_shape, (hb_font_t *f, hb_buffer_t *b, const void *features, unsigned n)) \
    X(hb_glyph_info_t *, hb_buffer_get_glyph_infos, (hb_buffer_t *b, unsigned *n)) \
    X(hb_glyph_position_t *, hb_buffer_get_glyph_positions, (hb_buffer_t *b, unsigned *n))

#define POINTER(ret, name, params) static ret (*name##_) params;
HB_FUNCTIONS(POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;

static void load(void) {
    /* Local: Pango, if it is loaded later, binds to the same library by its own lookup. */
    void *h = dlopen("libharfbuzz.so.0", RTLD_LAZY | RTLD_LOCAL);
    if (!h) return;
#define RESOLVE(ret, name, params) if (!(*(void **)&name##_ = dlsym(h, #name))) return;
    HB_FUNCTIONS(RESOLVE)
    loaded = 1;
}

int xhud_direct_load(void) {
    pthread_once(&once, load);
    return loaded;
}

struct xhud_direct_font {
    cairo_font_face_t *face;
    cairo_font_options_t *options;
    double pixel_size;
    FcCharSet *charset;
    FcPattern *match;
    hb_blob_t *blob;
    hb_face_t *hb_face;
    hb_font_t *hb_font;
    int ascent, descent;
};

/* What only Pango draws right: it applies these itself (or HarfBuzz needs them set). */
static int pango_only(FcPattern *m) {
    FcBool b;
    FcChar8 *s;
    int index;
    FcMatrix *matrix;
    if (FcPatternGetBool(m, FC_VARIABLE, 0, &b) == FcResultMatch && b) return 1;
    if (FcPatternGetBool(m, FC_EMBOLDEN, 0, &b) == FcResultMatch && b) return 1;
    if (FcPatternGetMatrix(m, FC_MATRIX, 0, &matrix) == FcResultMatch) return 1;
    if (FcPatternGetString(m, FC_FONT_VARIATIONS, 0, &s) == FcResultMatch) return 1;
    if (FcPatternGetString(m, FC_FONT_FEATURES, 0, &s) == FcResultMatch) return 1;
    if (FcPatternGetInteger(m, FC_INDEX, 0, &index) == FcResultMatch && (index >> 16) != 0) return 1;
    return 0;
}

/* Opens a match (taking it over). Needs no configuration: the match names its file and says
 * how to render it, so a match kept from an earlier process opens before fontconfig has read
 * its configuration. */
static xhud_direct_font *open_match(FcPattern *m, const cairo_font_options_t *options) {
    FcChar8 *file = NULL;
    FcCharSet *charset = NULL;
    int index = 0;
    double pixel_size = 0;
    struct stat st;
    if (!m || pango_only(m) || FcPatternGetString(m, FC_FILE, 0, &file) != FcResultMatch ||
        /* A regular file of a font's size: a match naming a FIFO or a device would block or
         * eat the process that reads it (a match may come from another process). */
        stat((const char *)file, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > XHUD_MAX_FONT_BYTES ||
        FcPatternGetCharSet(m, FC_CHARSET, 0, &charset) != FcResultMatch ||
        /* The size the match says (a rule may have changed it), as Pango's font takes it. */
        FcPatternGetDouble(m, FC_PIXEL_SIZE, 0, &pixel_size) != FcResultMatch || !(pixel_size > 0)) {
        if (m) FcPatternDestroy(m);
        return NULL;
    }
    FcPatternGetInteger(m, FC_INDEX, 0, &index);

    xhud_direct_font *font = calloc(1, sizeof *font);
    font->match = m;
    font->charset = charset;   /* owned by the pattern */
    font->pixel_size = pixel_size;
    font->options = cairo_font_options_copy(options);
    /* HarfBuzz reads the font's own file, as Pango's font map does, scaled to Pango units. */
    font->blob = hb_blob_create_from_file_((const char *)file);
    font->hb_face = hb_face_create_(font->blob, (unsigned)index);
    font->hb_font = hb_font_create_(font->hb_face);
    int scale = (int)lround(pixel_size * 1024);
    hb_font_set_scale_(font->hb_font, scale, scale);
    hb_font_make_immutable_(font->hb_font);   /* shaped from any thread from now on */
    hb_font_extents_t e;
    memset(&e, 0, sizeof e);
    hb_font_get_h_extents_(font->hb_font, &e);
    font->ascent = e.ascender;
    font->descent = -e.descender;
    font->face = cairo_ft_font_face_create_for_pattern(m);
    if (hb_blob_get_length_(font->blob) == 0 || cairo_font_face_status(font->face) != CAIRO_STATUS_SUCCESS) {
        xhud_direct_font_close(font);
        return NULL;
    }
    return font;
}

xhud_direct_font *xhud_direct_font_open(const char *families, double weight, int slant, int width,
                                        double pixel_size, double dpi, const cairo_font_options_t *options) {
    if (!xhud_direct_load()) return NULL;
    return open_match(xhud_font_match_pattern(families, weight, slant, width, pixel_size, dpi, NULL), options);
}

xhud_direct_font *xhud_direct_font_open_match(const char *match_text, const cairo_font_options_t *options) {
    if (!xhud_direct_load()) return NULL;
    return open_match(FcNameParse((const FcChar8 *)match_text), options);
}

char *xhud_direct_font_match_text(const xhud_direct_font *font) {
    return (char *)FcNameUnparse(font->match);
}

char *xhud_direct_match_file(const char *match_text) {
    FcPattern *m = FcNameParse((const FcChar8 *)match_text);
    FcChar8 *file = NULL;
    char *copy = m && FcPatternGetString(m, FC_FILE, 0, &file) == FcResultMatch ? strdup((const char *)file) : NULL;
    if (m) FcPatternDestroy(m);
    return copy;
}

/* Appends each string of a list, one per line, after a letter that says what it is. */
static void append_list(char **out, size_t *len, char kind, FcStrList *list) {
    if (!list) return;
    for (FcChar8 *s; (s = FcStrListNext(list)); ) {
        size_t n = strlen((const char *)s);
        char *grown = realloc(*out, *len + n + 4);
        if (!grown) break;
        *out = grown;
        (*out)[*len] = kind;
        (*out)[*len + 1] = ' ';
        memcpy(*out + *len + 2, s, n);
        (*out)[*len + 2 + n] = '\n';
        *len += n + 3;
        (*out)[*len] = 0;
    }
    FcStrListDone(list);
}

char *xhud_fontconfig_sources(void) {
    FcConfig *config = FcConfigReference(NULL);   /* loads the configuration if no one has */
    if (!config) return NULL;
    size_t len = 0;
    char *out = calloc(1, 1);
    append_list(&out, &len, 'f', FcConfigGetConfigFiles(config));
    append_list(&out, &len, 'd', FcConfigGetConfigDirs(config));
    append_list(&out, &len, 'd', FcConfigGetFontDirs(config));
    FcConfigDestroy(config);
    return out;
}

int xhud_fontconfig_version(void) { return FcGetVersion(); }

void xhud_direct_font_close(xhud_direct_font *font) {
    if (!font) return;
    if (font->hb_font) hb_font_destroy_(font->hb_font);
    if (font->hb_face) hb_face_destroy_(font->hb_face);
    if (font->blob) hb_blob_destroy_(font->blob);
    if (font->face) cairo_font_face_destroy(font->face);
    if (font->options) cairo_font_options_destroy(font->options);
    FcPatternDestroy(font->match);
    free(font);
}

int xhud_direct_font_covers(const xhud_direct_font *font, uint32_t ch) {
    return FcCharSetHasChar(font->charset, ch) ? 1 : 0;
}

void xhud_direct_font_extents(const xhud_direct_font *font, int *ascent, int *descent) {
    *ascent = font->ascent;
    *descent = font->descent;
}

/* PANGO_UNITS_ROUND: to the nearest whole pixel, halves up. */
static int round_units(int d) { return (d + 512) & ~1023; }

int xhud_direct_shape(const xhud_direct_font *font, const char *utf8, int length, xhud_direct_line *line) {
    memset(line, 0, sizeof *line);
    hb_buffer_t *b = hb_buffer_create_();
    hb_buffer_add_utf8_(b, utf8, length, 0, length);
    hb_buffer_set_direction_(b, HB_DIRECTION_LTR);
    hb_buffer_set_flags_(b, HB_BUFFER_FLAG_BOT | HB_BUFFER_FLAG_EOT);
    hb_buffer_guess_segment_properties_(b);
    hb_shape_(font->hb_font, b, NULL, 0);
    unsigned n = 0, np = 0;
    hb_glyph_info_t *info = hb_buffer_get_glyph_infos_(b, &n);
    hb_glyph_position_t *pos = hb_buffer_get_glyph_positions_(b, &np);
    int missing = np != n;
    for (unsigned i = 0; i < n && !missing; i++)
        missing = info[i].codepoint == 0;   /* .notdef: Pango would fall back */
    if (missing) {
        hb_buffer_destroy_(b);
        return 0;
    }
    line->glyphs = malloc((n ? n : 1) * sizeof *line->glyphs);
    line->x = malloc((n ? n : 1) * sizeof *line->x);
    line->y = malloc((n ? n : 1) * sizeof *line->y);
    int x = 0;
    for (unsigned i = 0; i < n; i++) {
        line->glyphs[i] = info[i].codepoint;
        line->x[i] = x + round_units(pos[i].x_offset);
        line->y[i] = round_units(-pos[i].y_offset);
        x += round_units(pos[i].x_advance);
    }
    line->count = (int)n;
    line->width = x;
    hb_buffer_destroy_(b);
    return 1;
}

void xhud_direct_line_free(xhud_direct_line *line) {
    free(line->glyphs);
    free(line->x);
    free(line->y);
    memset(line, 0, sizeof *line);
}

void xhud_direct_show(cairo_t *cr, const xhud_direct_font *font, const xhud_direct_line *line, double x, double y) {
    if (line->count == 0) return;
    cairo_glyph_t stack[64];
    cairo_glyph_t *g = line->count <= 64 ? stack : malloc(line->count * sizeof *g);
    for (int i = 0; i < line->count; i++) {
        g[i].index = line->glyphs[i];
        g[i].x = x + line->x[i] / 1024.0;
        g[i].y = y + line->y[i] / 1024.0;
    }
    cairo_save(cr);
    cairo_set_font_face(cr, font->face);
    cairo_set_font_size(cr, font->pixel_size);
    cairo_set_font_options(cr, font->options);
    cairo_show_glyphs(cr, g, line->count);
    cairo_restore(cr);
    if (g != stack) free(g);
}
