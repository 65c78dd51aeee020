"""HiDPI: the scale comes from Xft.dpi in RESOURCE_MANAGER, as desktops set it."""

import subprocess


def bezel_width(x, *args):
    hud = x.start_xhud("--no-shadow", "--mode", "success", "--label", "Done", "--animation", "none", *args)
    box, _ = x.hud_bbox()
    assert box is not None, hud.describe()
    hud.signal(15)
    assert hud.wait(5) == 0
    return box[2] - box[0] + 1


def test_xft_dpi_192_doubles_the_bezel(xplain):
    x = xplain
    base = bezel_width(x)
    subprocess.run(["xrdb", "-nocpp", "-merge"], input=b"Xft.dpi: 192\n", env=x.env, check=True)
    doubled = bezel_width(x)
    assert abs(doubled - 2 * base) <= 3, f"at 96 dpi {base} px, at 192 dpi {doubled} px"
    # --scale wins over Xft.dpi.
    assert abs(bezel_width(x, "--scale", "1") - base) <= 2
