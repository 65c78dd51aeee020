/* Font matching with fontconfig alone (see CFontMatch.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <fontconfig/fontconfig.h>
#pragma GCC visibility push(hidden)
#include "CFontMatch.h"
#pragma GCC visibility pop

FcConfig *xhud_font_config_new(void) {
    FcConfig *config = FcConfigCreate();
    if (!config) return NULL;
    FcStrList *dirs = NULL;
    if (FcConfigParseAndLoad(config, NULL, FcTrue) && (dirs = FcConfigGetCacheDirs(config)) && FcStrListNext(dirs) &&
        FcConfigBuildFonts(config)) {
        FcStrListDone(dirs);
        return config;
    }
    if (dirs) FcStrListDone(dirs);
    FcConfigDestroy(config);
    return FcInitLoadConfigAndFonts();
}

static void load_once(void) {
    FcConfig *config = xhud_font_config_new();
    if (!config) return;   /* the first match loads fontconfig's own way, and fails as it does */
    FcConfigSetCurrent(config);
    FcConfigDestroy(config);   /* the current configuration holds its own reference */
}

void xhud_font_config_load(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load_once);
}

void xhud_font_substitute_options(FcPattern *p) {
    FcValue v;
    /* Antialiasing (grey): on, and no subpixel order, unless a rule said otherwise. */
    if (FcPatternGet(p, FC_ANTIALIAS, 0, &v) == FcResultNoMatch) {
        FcPatternAddBool(p, FC_ANTIALIAS, FcTrue);
        FcPatternDel(p, FC_RGBA);
        FcPatternAddInteger(p, FC_RGBA, FC_RGBA_NONE);
    }
    if (FcPatternGet(p, FC_RGBA, 0, &v) == FcResultNoMatch) FcPatternAddInteger(p, FC_RGBA, FC_RGBA_NONE);
    /* Hinting (slight): on, in the slight style, unless a rule said otherwise. */
    if (FcPatternGet(p, FC_HINTING, 0, &v) == FcResultNoMatch) FcPatternAddBool(p, FC_HINTING, FcTrue);
    if (FcPatternGet(p, FC_HINT_STYLE, 0, &v) == FcResultNoMatch) FcPatternAddInteger(p, FC_HINT_STYLE, FC_HINT_SLIGHT);
}

/* The pattern Pango builds for a description (pango_fc_make_pattern), substituted in its order
 * (the configuration's rules, the context's font options, the defaults), and fontconfig's match
 * for it. */
FcPattern *xhud_font_match_pattern(const char *families, double weight, int slant, int width,
                                   double pixel_size, double dpi, const char *program) {
    if (!(pixel_size > 0) || !(dpi > 0)) return NULL;
    FcPattern *p = FcPatternBuild(NULL,
        FC_WEIGHT, FcTypeDouble, FcWeightFromOpenTypeDouble(weight),
        FC_SLANT, FcTypeInteger, slant,
        FC_WIDTH, FcTypeInteger, width,
        FC_VARIABLE, FcTypeBool, FcDontCare,
        FC_DPI, FcTypeDouble, dpi,
        FC_SIZE, FcTypeDouble, pixel_size * 72.0 / dpi,
        FC_PIXEL_SIZE, FcTypeDouble, pixel_size,
        (char *)NULL);
    if (!p) return NULL;
    char *list = strdup(families);
    for (char *save = NULL, *f = strtok_r(list, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
        while (*f == ' ') f++;
        size_t n = strlen(f);
        while (n > 0 && f[n - 1] == ' ') f[--n] = 0;
        if (n > 0) FcPatternAddString(p, FC_FAMILY, (const FcChar8 *)f);
    }
    free(list);
    /* Fontconfig adds the running program's name where none is given. */
    if (program) FcPatternAddString(p, FC_PRGNAME, (const FcChar8 *)program);
    FcConfigSubstitute(NULL, p, FcMatchPattern);
    xhud_font_substitute_options(p);
    FcDefaultSubstitute(p);
    FcResult result;
    FcPattern *m = FcFontMatch(NULL, p, &result);
    FcPatternDestroy(p);
    return m;
}

char *xhud_font_match(const char *families, double weight, int slant, int width,
                      double pixel_size, double dpi, const char *program) {
    FcPattern *m = xhud_font_match_pattern(families, weight, slant, width, pixel_size, dpi, program);
    if (!m) return NULL;
    char *text = (char *)FcNameUnparse(m);
    FcPatternDestroy(m);
    return text;
}
