variable "team_slug" {
  description = "The GitHub team whose members this module keeps, by slug (the provider's owner is the organization)."
  type        = string
}

variable "username_question" {
  description = "The Join It custom question whose answer is the member's GitHub username, exactly as the question reads."
  type        = string
  default     = "GitHub username"
}

variable "status" {
  description = "Membership status of the members the team should have: a name (active) or its code (100), as member-sync reads it."
  type        = string
  default     = "active"
}

variable "membership_names" {
  description = "Only memberships of these types (by name); null for every type."
  type        = set(string)
  default     = null
}

variable "maintainers" {
  description = "Usernames that keep the maintainer role (compared without case): the team's maintainers, and the organization's owners, whom GitHub reports as maintainers. Every other member is a member."
  type        = set(string)
  default     = []
}

variable "min_members" {
  description = "Fewest members the team may be planned to hold (member-sync's guard). Fewer stops the plan: a wrong token, organization, filter or username_question must not empty the team."
  type        = number
  default     = 1
}

variable "max_removals" {
  description = "Most of the team's current members one plan may remove (member-sync's guard): a whole number (0, 1, 25), or a fraction of the current members below 1 (0.1 is a tenth, rounded down: no removal at all from a team of fewer than 10). More stops the plan."
  type        = number
  default     = 0.1
}

variable "organization_id" {
  description = "When set, every membership read must belong to this Join It organization (member-sync's guard; records without organization_id pass). Null checks nothing here."
  type        = string
  default     = null
}
