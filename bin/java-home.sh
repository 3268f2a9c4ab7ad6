# Sourced by the scripts in bin/: picks a Java 25+ JDK (the machine's default java may be 17).
java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'; }
if [[ -z "${JAVA_HOME:-}" || ! -x "$JAVA_HOME/bin/java" || "$(java_major "$JAVA_HOME")" -lt 25 ]]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
if [[ ! -x "$JAVA_HOME/bin/java" ]]; then
  echo "Java 25 not found at $JAVA_HOME: install a Java 25 JDK and set JAVA_HOME" >&2
  exit 1
fi
