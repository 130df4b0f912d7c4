// render_icon SVG SIZE OUT.png: renders the SVG icon at SIZE×SIZE pixels (transparent background)
// into OUT.png. Built and run by packaging/CMakeLists.txt for the hicolor PNG sizes, with Qt's own
// SVG renderer (the one that draws the window icon), so the build needs no other SVG tool.
#include <QByteArray>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: render_icon SVG SIZE OUT.png\n");
        return 2;
    }
    QSvgRenderer renderer(QString::fromLocal8Bit(argv[1]));
    if (!renderer.isValid()) {
        std::fprintf(stderr, "render_icon: %s: not a valid SVG file\n", argv[1]);
        return 1;
    }
    const int size = std::atoi(argv[2]);
    if (size < 1 || size > 4096) {
        std::fprintf(stderr, "render_icon: SIZE must be 1 to 4096, got \"%s\"\n", argv[2]);
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    renderer.render(&painter);
    painter.end();
    if (!image.save(QString::fromLocal8Bit(argv[3]), "PNG")) {
        std::fprintf(stderr, "render_icon: %s: cannot be written\n", argv[3]);
        return 1;
    }
    return 0;
}
