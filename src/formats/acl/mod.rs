//! ACL raw clips (`.acl.sjson`, `.acl.zip`).
