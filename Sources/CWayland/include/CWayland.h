#ifndef XHUD_CWAYLAND_H
#define XHUD_CWAYLAND_H

/* The Wayland protocols' interface tables (generated, see scripts/wayland-protocols.sh) and the
 * types of the few libwayland-client functions HUDWayland calls through dlsym: nothing links the
 * library, so an X11 session never maps it. wayland-util.h holds types only. */
#include <stdint.h>
#include <wayland-util.h>

struct wl_proxy;
struct wl_display;

extern const struct wl_interface wl_registry_interface;
extern const struct wl_interface wl_callback_interface;
extern const struct wl_interface wl_compositor_interface;
extern const struct wl_interface wl_shm_pool_interface;
extern const struct wl_interface wl_shm_interface;
extern const struct wl_interface wl_buffer_interface;
extern const struct wl_interface wl_surface_interface;
extern const struct wl_interface wl_region_interface;
extern const struct wl_interface wl_seat_interface;
extern const struct wl_interface wl_pointer_interface;
extern const struct wl_interface wl_keyboard_interface;
extern const struct wl_interface wl_output_interface;
extern const struct wl_interface zwlr_layer_shell_v1_interface;
extern const struct wl_interface zwlr_layer_surface_v1_interface;
extern const struct wl_interface wp_viewporter_interface;
extern const struct wl_interface wp_viewport_interface;
extern const struct wl_interface wp_fractional_scale_manager_v1_interface;
extern const struct wl_interface wp_fractional_scale_v1_interface;
extern const struct wl_interface zxdg_output_manager_v1_interface;
extern const struct wl_interface zxdg_output_v1_interface;

typedef struct wl_display *(*xhud_wl_display_connect)(const char *name);
typedef void (*xhud_wl_display_disconnect)(struct wl_display *display);
typedef int (*xhud_wl_display_int)(struct wl_display *display);
typedef struct wl_proxy *(*xhud_wl_proxy_marshal_array_flags)(struct wl_proxy *proxy, uint32_t opcode,
    const struct wl_interface *interface, uint32_t version, uint32_t flags, union wl_argument *args);
typedef int (*xhud_wl_dispatcher)(const void *implementation, void *target, uint32_t opcode,
    const struct wl_message *message, union wl_argument *args);
typedef int (*xhud_wl_proxy_add_dispatcher)(struct wl_proxy *proxy, xhud_wl_dispatcher dispatcher,
    const void *implementation, void *data);
typedef void (*xhud_wl_proxy_destroy)(struct wl_proxy *proxy);
typedef uint32_t (*xhud_wl_proxy_get_version)(struct wl_proxy *proxy);

/* The tables' addresses, as Swift would copy an imported C constant. */
static inline const struct wl_interface *xhud_wl_registry_interface(void) { return &wl_registry_interface; }
static inline const struct wl_interface *xhud_wl_callback_interface(void) { return &wl_callback_interface; }
static inline const struct wl_interface *xhud_wl_compositor_interface(void) { return &wl_compositor_interface; }
static inline const struct wl_interface *xhud_wl_shm_pool_interface(void) { return &wl_shm_pool_interface; }
static inline const struct wl_interface *xhud_wl_shm_interface(void) { return &wl_shm_interface; }
static inline const struct wl_interface *xhud_wl_buffer_interface(void) { return &wl_buffer_interface; }
static inline const struct wl_interface *xhud_wl_surface_interface(void) { return &wl_surface_interface; }
static inline const struct wl_interface *xhud_wl_region_interface(void) { return &wl_region_interface; }
static inline const struct wl_interface *xhud_wl_seat_interface(void) { return &wl_seat_interface; }
static inline const struct wl_interface *xhud_wl_pointer_interface(void) { return &wl_pointer_interface; }
static inline const struct wl_interface *xhud_wl_keyboard_interface(void) { return &wl_keyboard_interface; }
static inline const struct wl_interface *xhud_wl_output_interface(void) { return &wl_output_interface; }
static inline const struct wl_interface *xhud_layer_shell_interface(void) { return &zwlr_layer_shell_v1_interface; }
static inline const struct wl_interface *xhud_layer_surface_interface(void) { return &zwlr_layer_surface_v1_interface; }
static inline const struct wl_interface *xhud_viewporter_interface(void) { return &wp_viewporter_interface; }
static inline const struct wl_interface *xhud_viewport_interface(void) { return &wp_viewport_interface; }
static inline const struct wl_interface *xhud_fractional_scale_manager_interface(void) { return &wp_fractional_scale_manager_v1_interface; }
static inline const struct wl_interface *xhud_fractional_scale_interface(void) { return &wp_fractional_scale_v1_interface; }
static inline const struct wl_interface *xhud_xdg_output_manager_interface(void) { return &zxdg_output_manager_v1_interface; }
static inline const struct wl_interface *xhud_xdg_output_interface(void) { return &zxdg_output_v1_interface; }

#endif
