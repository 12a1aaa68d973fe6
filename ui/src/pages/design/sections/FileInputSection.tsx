import { useState } from 'react';
import { FileInput } from '../../../components/ui/FileInput';
import { Row } from './Row';

export function FileInputSection() {
  const [count, setCount] = useState(0);
  return (
    <>
      <Row label="One file">
        <FileInput
          label="Choose a logo"
          accept="image/*"
          hint="SVG or PNG, up to 1 MB"
          onFiles={(files) => setCount(files.length)}
        />
        <span role="status">{count > 0 && `${count} file chosen`}</span>
      </Row>
      <Row label="Disabled">
        <FileInput label="Attach files" multiple disabled onFiles={() => {}} />
      </Row>
    </>
  );
}
