package message

// Course codes: why a course file (.vika) could not be opened or saved.
// Nothing of a refused file is added.
const (
	CourseNotCourse = "course.not_course" // not a Vika course file
	CourseVersion   = "course.version"    // made by a newer Vika
	CourseTampered  = "course.tampered"   // a PDF's bytes do not match its fingerprint: changed after it was saved
	CourseDamaged   = "course.damaged"    // damaged (checksum, structure)
	CourseTooLarge  = "course.too_large"  // over a size limit
	CourseTooSlow   = "course.too_slow"   // its checks ran out of time
)

func init() {
	english[CourseNotCourse] = fixed("This file is not a Vika course file.")
	english[CourseVersion] = fixed("This course file was saved by a newer Vika: update Vika to open it.")
	english[CourseTampered] = fixed("This course file was changed after it was saved (a PDF in it does not match its fingerprint): it was not opened.")
	english[CourseDamaged] = fixed("This course file is damaged: it was not opened.")
	english[CourseTooLarge] = fixed("This course file is larger than Vika accepts: it was not opened.")
	english[CourseTooSlow] = fixed("Checking this course file took too long (a slow disk or network drive, or a file made to stall Vika): it was not opened.")
}
