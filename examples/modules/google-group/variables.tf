variable "group_email" {
  description = "The Google Workspace group this module keeps: its address (or its id). The root's import block adopts it as groups/<group_email>."
  type        = string
}

variable "keep_members" {
  description = "Addresses kept whatever Join It says, each with its role: the group's owners and managers (OWNER, MANAGER), or anyone (MEMBER). Write each as Google lists it when the group holds it, else in lower case. They count neither toward min_members nor as removals; a Join It member listed here gets this role."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for r in values(var.keep_members) : contains(["OWNER", "MANAGER", "MEMBER"], r)])
    error_message = "A role in keep_members is OWNER, MANAGER or MEMBER."
  }
}

variable "member_domains" {
  description = "Only Join It addresses of these domains (for example [\"example.org\"]), for a group that refuses external members; the others are in not_found. Lower case, without \"@\". Empty: every address."
  type        = set(string)
  default     = []

  validation {
    condition     = alltrue([for d in var.member_domains : can(regex("^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$", d))])
    error_message = "Write each of member_domains as a domain in lower case, without \"@\" or spaces: \"example.org\"."
  }
}

# Passed to member-sync.

variable "status" {
  description = "Membership status of the members the group holds: a name (prospective, pending, active, expired, cancelled) or its code. Every sync module called with the same status (and no other fields) shares one read of Join It."
  type        = string
  default     = "active"
}

variable "membership_names" {
  description = "Only memberships of these types (by name); null for every type."
  type        = set(string)
  default     = null
}

variable "min_members" {
  description = "Fewest Join It members (after member_domains, keep_members not counted) a plan may give the group. Fewer stops the plan: a wrong token, organization or filter must not empty the group."
  type        = number
  default     = 1
}

variable "max_removals" {
  description = "Most members of the group's Join It part one plan may remove (keep_members are never removed): a whole number (0, 1, 25), or a fraction below 1 of that part (0.1 is a tenth, rounded down). More stops the plan."
  type        = number
  default     = 0.1
}

variable "organization_id" {
  description = "When set, every membership read must belong to this Join It organization, or the plan stops. Null checks nothing here (the provider's organization_id still does)."
  type        = string
  default     = null
}
