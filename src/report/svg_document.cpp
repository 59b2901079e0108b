// SVG text for the pictures (svg_document.hpp).

#include "svg_document.hpp"

#include <cmath>

#include <fmt/format.h>

namespace gaus::report {

double estimateTextWidth(std::string_view text, double fontSize) {
  // Counts UTF-8 code points, not bytes (delta and sigma appear in edge labels).
  std::size_t characters = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++characters;
  }
  return static_cast<double>(characters) * 0.62 * fontSize;
}

std::string fitText(std::string_view text, double width, double fontSize) {
  if (estimateTextWidth(text, fontSize) <= width) return std::string(text);
  const double characterWidth = 0.62 * fontSize;
  const auto fitting = static_cast<std::ptrdiff_t>(std::floor(width / characterWidth)) - 1;
  if (fitting < 2) return {};
  // Cut on a code point boundary.
  std::size_t end = 0;
  std::ptrdiff_t kept = 0;
  while (end < text.size() && kept < fitting) {
    ++end;
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
    ++kept;
  }
  return std::string(text.substr(0, end)) + "\u2026";
}

std::string escapeXml(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&#39;";
        break;
      default:
        // Control characters are not allowed in XML 1.0 (a name from a binary file could hold
        // them).
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
          escaped += '?';
        } else {
          escaped += c;
        }
    }
  }
  return escaped;
}

std::string_view pictureStyle() {
  return R"css(
.gaus-picture text { font-family: 'DejaVu Sans', Arial, Helvetica, sans-serif; fill: #1a1a1a; }
.gaus-picture .background { fill: #ffffff; }
.gaus-picture .title { font-size: 15px; font-weight: bold; }
.gaus-picture .note { font-size: 12px; fill: #404040; }
.gaus-picture .warn { font-size: 12px; font-weight: bold; fill: #b00020; }
.gaus-picture .ok { font-size: 12px; fill: #1b7a35; }
.gaus-picture .lbl { font-size: 11px; }
.gaus-picture .small { font-size: 9px; fill: #333333; }
.gaus-picture .rowlbl { font-size: 11px; }
.gaus-picture .rowgroup { font-size: 11px; font-weight: bold; }
.gaus-picture .over { font-size: 11px; font-weight: bold; fill: #b00020; }
.gaus-picture .axis { font-size: 10px; fill: #404040; }
.gaus-picture .axistitle { font-size: 11px; fill: #404040; }
.gaus-picture .tick { stroke: #9a9a9a; stroke-width: 1; }
.gaus-picture .grid { stroke: #e6e6e6; stroke-width: 1; }
.gaus-picture .frame { fill: none; stroke: #9a9a9a; stroke-width: 1; }
.gaus-picture .lane { fill: #f7f7f7; }
.gaus-picture .lanealt { fill: #efefef; }
.gaus-picture .box { stroke: #303030; stroke-width: 0.6; }
.gaus-picture .band { stroke: none; shape-rendering: crispEdges; }
.gaus-picture .cell { fill: #ffffff; stroke: #c8c8c8; stroke-width: 1; }
.gaus-picture .iiline { stroke: #505050; stroke-width: 1; stroke-dasharray: 4 3; }
.gaus-picture .attempt { stroke: #7a4fb5; stroke-width: 1; stroke-dasharray: 3 3; }
.gaus-picture .steady { fill: #fff3c4; }
.gaus-picture .edge { fill: none; stroke: #5a5a5a; stroke-width: 1.2; }
.gaus-picture .carried { fill: none; stroke: #d0601a; stroke-width: 1.4; stroke-dasharray: 6 3; }
.gaus-picture .arrow { fill: #5a5a5a; }
.gaus-picture .arrowcarried { fill: #d0601a; }
.gaus-picture .elbl { font-size: 10px; fill: #303030; paint-order: stroke; stroke: #ffffff;
  stroke-width: 3px; stroke-linejoin: round; }
.gaus-picture .elblcarried { font-size: 10px; fill: #a0420a; paint-order: stroke;
  stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; }
.gaus-picture .node { stroke: #303030; stroke-width: 0.8; }
.gaus-picture .series { fill: none; stroke-width: 1.6; }
.gaus-picture .dot { stroke: #ffffff; stroke-width: 0.5; }
.gaus-picture .pt { stroke: #ffffff; stroke-width: 0.8; fill-opacity: 0.8; }
)css";
}

std::string formatCoordinate(double value) {
  const double rounded = std::round(value * 10.0) / 10.0;
  if (rounded == std::floor(rounded)) return fmt::format("{}", static_cast<long long>(rounded));
  return fmt::format("{:.1f}", rounded);
}

namespace {

std::string titleElement(std::string_view tooltip) {
  if (tooltip.empty()) return {};
  return fmt::format("<title>{}</title>", escapeXml(tooltip));
}

// Ends an element whose start tag is open: empty, or with its tooltip as a <title> child.
void closeElement(std::string& body, std::string_view tag, std::string_view tooltip) {
  if (tooltip.empty()) {
    body += "/>\n";
    return;
  }
  body += '>';
  body += titleElement(tooltip);
  body += "</";
  body += tag;
  body += ">\n";
}

std::string fillAttribute(std::string_view fill) {
  if (fill.empty()) return {};
  return fmt::format(" fill=\"{}\"", fill);
}

}  // namespace

void SvgDocument::rect(double x, double y, double width, double height, std::string_view cssClass,
                       std::string_view fill, std::string_view tooltip) {
  const std::string head =
      fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"{}\"{}",
                  formatCoordinate(x), formatCoordinate(y), formatCoordinate(width),
                  formatCoordinate(height), cssClass, fillAttribute(fill));
  body_ += head;
  closeElement(body_, "rect", tooltip);
}

void SvgDocument::text(double x, double y, std::string_view content, std::string_view cssClass,
                       TextAnchor anchor, std::string_view tooltip) {
  std::string_view anchorAttribute;
  if (anchor == TextAnchor::kMiddle) anchorAttribute = " text-anchor=\"middle\"";
  if (anchor == TextAnchor::kEnd) anchorAttribute = " text-anchor=\"end\"";
  body_ += fmt::format("<text x=\"{}\" y=\"{}\" class=\"{}\"{}>{}{}</text>\n", formatCoordinate(x),
                       formatCoordinate(y), cssClass, anchorAttribute, titleElement(tooltip),
                       escapeXml(content));
}

void SvgDocument::line(double x1, double y1, double x2, double y2, std::string_view cssClass) {
  body_ += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"{}\"/>\n",
                       formatCoordinate(x1), formatCoordinate(y1), formatCoordinate(x2),
                       formatCoordinate(y2), cssClass);
}

void SvgDocument::path(std::string_view data, std::string_view cssClass, std::string_view stroke,
                       std::string_view tooltip) {
  const std::string strokeAttribute =
      stroke.empty() ? std::string() : fmt::format(" stroke=\"{}\"", stroke);
  body_ += fmt::format("<path d=\"{}\" class=\"{}\"{}", data, cssClass, strokeAttribute);
  closeElement(body_, "path", tooltip);
}

void SvgDocument::circle(double cx, double cy, double r, std::string_view cssClass,
                         std::string_view fill, std::string_view tooltip) {
  body_ += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" class=\"{}\"{}", formatCoordinate(cx),
                       formatCoordinate(cy), formatCoordinate(r), cssClass, fillAttribute(fill));
  closeElement(body_, "circle", tooltip);
}

void SvgDocument::polyline(std::string_view points, std::string_view cssClass,
                           std::string_view stroke) {
  const std::string strokeAttribute =
      stroke.empty() ? std::string() : fmt::format(" stroke=\"{}\"", stroke);
  body_ +=
      fmt::format("<polyline points=\"{}\" class=\"{}\"{}/>\n", points, cssClass, strokeAttribute);
}

void SvgDocument::beginGroup(std::string_view tooltip) {
  body_ += "<g>";
  body_ += titleElement(tooltip);
  body_ += '\n';
}

void SvgDocument::endGroup() {
  body_ += "</g>\n";
}

std::string SvgDocument::open() const {
  const std::string width = formatCoordinate(std::ceil(width_));
  const std::string height = formatCoordinate(std::ceil(height_));
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"gaus-picture\" width=\"{0}\" "
      "height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n<style>{2}</style>\n"
      "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" class=\"background\"/>\n",
      width, height, pictureStyle());
}

std::string SvgDocument::finish() const {
  std::string document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  document += finishInline();
  return document;
}

std::string SvgDocument::finishInline() const {
  return open() + body_ + "</svg>\n";
}

}  // namespace gaus::report
