// A small writer of SVG text for the pictures: shapes with classes from one shared stylesheet,
// tooltips as <title> children, escaped text, and an estimate of text width (no font metrics
// are available while writing, and labels must not overflow their boxes).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gaus::report {

enum class TextAnchor { kStart, kMiddle, kEnd };

// The typeface of every picture and the width its characters take on average, used to decide
// whether a label fits (DejaVu Sans, the Debian default, is among the wider sans faces).
inline constexpr std::string_view kFontFamily = "'DejaVu Sans', Arial, Helvetica, sans-serif";
double estimateTextWidth(std::string_view text, double fontSize);

// `text` shortened with an ellipsis to fit `width` at `fontSize`; empty when not even two
// characters and the ellipsis fit.
std::string fitText(std::string_view text, double width, double fontSize);

std::string escapeXml(std::string_view text);

// The stylesheet shared by every picture and by the report page (inline SVGs in one HTML page
// share their styles, so the classes must mean the same everywhere).
std::string_view pictureStyle();

class SvgDocument {
 public:
  SvgDocument(double width, double height) : width_(width), height_(height) {}

  double width() const { return width_; }
  double height() const { return height_; }
  void setHeight(double height) { height_ = height; }
  std::size_t size() const { return body_.size(); }

  // A rectangle; `fill` overrides the class's fill, `tooltip` becomes its <title>.
  void rect(double x, double y, double width, double height, std::string_view cssClass,
            std::string_view fill = {}, std::string_view tooltip = {});
  void text(double x, double y, std::string_view content, std::string_view cssClass,
            TextAnchor anchor = TextAnchor::kStart, std::string_view tooltip = {});
  void line(double x1, double y1, double x2, double y2, std::string_view cssClass);
  void path(std::string_view data, std::string_view cssClass, std::string_view stroke = {},
            std::string_view tooltip = {});
  void circle(double cx, double cy, double r, std::string_view cssClass, std::string_view fill = {},
              std::string_view tooltip = {});
  void polyline(std::string_view points, std::string_view cssClass, std::string_view stroke = {});
  // A group whose <title> is the tooltip of everything inside (a box and its label).
  void beginGroup(std::string_view tooltip);
  void endGroup();

  // The document: an <svg> element with its size, the stylesheet and the body.
  std::string finish() const;
  // The same without the XML declaration, for inlining into HTML.
  std::string finishInline() const;

 private:
  std::string open() const;

  double width_;
  double height_;
  std::string body_;
};

// A coordinate as SVG text: one decimal, no trailing ".0".
std::string formatCoordinate(double value);

}  // namespace gaus::report
