variable "current_members" {
  description = "E-mail addresses in the downstream group now (from its own provider or data source). Compared without regard to case or surrounding spaces."
  type        = set(string)
}

variable "status" {
  description = "Membership status of the desired members: 100 is active."
  type        = number
  default     = 100
}

variable "membership_names" {
  description = "Only memberships of these types (by name); null for every type."
  type        = set(string)
  default     = null
}

variable "min_members" {
  description = "Fewest desired members a plan may read. Fewer stops the plan: a wrong token, organization or filter must not empty the group."
  type        = number
  default     = 1

  validation {
    condition     = var.min_members >= 1
    error_message = "Keep min_members at 1 or more: an empty read would remove everyone."
  }
}

variable "max_removals" {
  description = "Most current members one plan may remove: a whole number of members (0, 1, 25), or a fraction of the current members below 1 (0.1 is a tenth, rounded down: no removal at all from a group of fewer than 10). More stops the plan."
  type        = number
  default     = 0.1

  validation {
    condition     = var.max_removals >= 0 && (var.max_removals < 1 || floor(var.max_removals) == var.max_removals)
    error_message = "max_removals is a fraction below 1 (0.1) or a whole number of members (5), not negative."
  }
}

variable "organization_id" {
  description = "When set, every membership read must belong to this Join It organization (records without organization_id pass, as in the provider's own guard). Null checks nothing."
  type        = string
  default     = null
}
