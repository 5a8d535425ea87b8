import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router';
import { ContactSearch } from './contact-search';

export function ContactSearchPage() {
  const navigate = useNavigate();
  return (
    <>
      <div className="d-flex align-items-center justify-content-between mb-3">
        <h1 className="h3 mb-0">Contact Search</h1>
        <Button onClick={() => void navigate('/contacts/import')}>Import contacts</Button>
      </div>
      <ContactSearch />
    </>
  );
}
