# Never answers: reads its input forever, with a child in its process group.
sleep 1000 &
exec cat > /dev/null
