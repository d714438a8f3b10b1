"""The build pipeline: the build context, the faces drawn once per build, the card images drawn
on workers, and the face cache."""
