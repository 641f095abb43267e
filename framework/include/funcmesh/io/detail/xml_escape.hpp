// xml_escaped: text made safe for an XML attribute value or element (field names and file
// names are the user's). Internal (detail): the VTK and XDMF writers share it.
#pragma once

#include <string>
#include <string_view>

namespace funcmesh::io::detail {

// & < > " ' as XML's entities; every other character as it is.
std::string xml_escaped(std::string_view text);

}  // namespace funcmesh::io::detail
